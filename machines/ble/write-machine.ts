import { assign, fromPromise, setup } from 'xstate';
import { transportErrorKind } from '../../src/ble/transport-error.ts';
import { WriteValidationError } from '../../src/ble/write-validation-error.ts';
import { differingSettings } from '../../src/device-config/differing-settings.ts';
import type { FieldError } from '../../src/device-config/encode-form.ts';
import type { FormGroupModel } from '../../src/device-config/form-fields.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import { type BleLink, problemOf, type ReadConfiguration } from './ble-types.ts';

/** Whether the device still holds what it held before the write, as far as the app can know. */
export type DeviceKept = 'old' | 'unknown' | 'different';

export interface WriteFailure {
  message: string;
  deviceKept: DeviceKept;
}

export const WRITE_MESSAGES = {
  invalid: 'Some settings are not valid: fix the marked fields. Nothing was sent to the device.',
  kept: 'The device kept its old configuration. Your changes are still in the form.',
  lost: 'The connection was lost before the device confirmed the write. The device keeps its old configuration unless the write reached it: check the values once it reconnects. Your changes are still in the form.',
  unreadable:
    'The device answered the write, but it could not be read back to check it. Your changes are still in the form: read the device again before trusting them.',
  different: (names: string[]) =>
    `The device holds other values than were written (${names.join(', ')}). Your changes are still in the form.`,
} as const;

export interface WriteRequest {
  link: BleLink;
  groups: readonly FormGroupModel[];
  values: Readonly<Record<string, unknown>>;
  /** The frame the form's values were read from: bytes the form does not cover are kept. */
  base: Uint8Array;
}

export interface WriteContext {
  product: DeviceProduct;
  request: WriteRequest | null;
  frame: Uint8Array | null;
  readBack: ReadConfiguration | null;
  fieldErrors: FieldError[];
  failure: WriteFailure | null;
}

export type WriteEvent = ({ type: 'config.write' } & WriteRequest) | { type: 'config.dismiss' };

/**
 * What the write tells the machine that runs it (the Configure session): verified, with what was
 * asked and what the device now holds; refused at the form, field by field; or failed. Alone, the
 * machine reports to nobody: the session provides the `report*` actions as `sendParent`.
 */
export type WriteReport =
  | { type: 'write.verified'; request: WriteRequest; readBack: ReadConfiguration }
  | { type: 'write.invalid'; fieldErrors: FieldError[] }
  | { type: 'write.failed'; failure: WriteFailure };

const startWrite = { target: '#bleWrite.validating', actions: 'takeRequest' } as const;

/**
 * The write: validate the form → encode (÷ multiplier, rounded) → write → read back → verify byte
 * for byte → done. Every failure ends in `failed` with a message that says whether the device kept
 * its old configuration; the form's values are never touched here, so the person's edits stay.
 * Nothing reaches `done` that was not verified.
 */
export const writeMachine = setup({
  types: {
    context: {} as WriteContext,
    events: {} as WriteEvent,
    input: {} as { product: DeviceProduct },
  },
  actors: {
    prepareWrite: fromPromise<Uint8Array, WriteRequest>(async () => {
      throw new Error('The prepareWrite actor is not provided');
    }),
    sendWrite: fromPromise<Uint8Array, { link: BleLink; frame: Uint8Array }>(async () => {
      throw new Error('The sendWrite actor is not provided');
    }),
    readBack: fromPromise<ReadConfiguration, { link: BleLink }>(async () => {
      throw new Error('The readBack actor is not provided');
    }),
  },
  actions: {
    fail: assign((_, failure: WriteFailure) => ({ failure })),
    // Reports to the machine that runs this one; nothing when it runs alone.
    reportVerified: (_, _report: { request: WriteRequest; readBack: ReadConfiguration }) => {},
    reportInvalid: (_, _report: { fieldErrors: FieldError[] }) => {},
    reportFailed: (_, _report: { failure: WriteFailure }) => {},
    takeRequest: assign(({ event }) => ({
      request:
        event.type === 'config.write'
          ? { link: event.link, groups: event.groups, values: event.values, base: event.base }
          : null,
      frame: null,
      readBack: null,
      fieldErrors: [],
      failure: null,
    })),
  },
  guards: {
    invalidForm: (_, { error }: { error: unknown }) => error instanceof WriteValidationError,
    refusedByDevice: (_, { error }: { error: unknown }) => transportErrorKind(error) === 'device-error',
    damagedAnswer: (_, { error }: { error: unknown }) => transportErrorKind(error) === 'bad-answer',
    holdsWritten: ({ context }) =>
      differingSettings(
        context.product.config,
        context.frame as Uint8Array,
        (context.readBack as ReadConfiguration).frame,
      ).length === 0,
    holdsOld: ({ context }) =>
      differingSettings(
        context.product.config,
        (context.request as WriteRequest).base,
        (context.readBack as ReadConfiguration).frame,
      ).length === 0,
  },
}).createMachine({
  id: 'bleWrite',
  context: ({ input }) => ({
    product: input.product,
    request: null,
    frame: null,
    readBack: null,
    fieldErrors: [],
    failure: null,
  }),
  initial: 'idle',
  states: {
    idle: { on: { 'config.write': startWrite } },
    validating: {
      invoke: {
        src: 'prepareWrite',
        input: ({ context }) => context.request as WriteRequest,
        onDone: { target: 'writing', actions: assign({ frame: ({ event }) => event.output }) },
        onError: [
          {
            guard: { type: 'invalidForm', params: ({ event }) => ({ error: event.error }) },
            target: 'invalid',
            actions: assign({
              fieldErrors: ({ event }) => (event.error as WriteValidationError).errors,
              failure: { message: WRITE_MESSAGES.invalid, deviceKept: 'old' },
            }),
          },
          {
            target: 'failed',
            actions: assign({
              failure: ({ event }) => ({
                message: `${problemOf(event.error).message} Nothing was sent to the device.`,
                deviceKept: 'old' as const,
              }),
            }),
          },
        ],
      },
    },
    writing: {
      invoke: {
        src: 'sendWrite',
        input: ({ context }) => ({
          link: (context.request as WriteRequest).link,
          frame: context.frame as Uint8Array,
        }),
        onDone: 'readingBack',
        onError: [
          {
            guard: { type: 'refusedByDevice', params: ({ event }) => ({ error: event.error }) },
            target: 'failed',
            actions: assign({
              failure: ({ event }) => ({
                message: `${problemOf(event.error).message} ${WRITE_MESSAGES.kept}`,
                deviceKept: 'old' as const,
              }),
            }),
          },
          // A damaged answer says nothing about what the device stored: reading back does.
          {
            guard: { type: 'damagedAnswer', params: ({ event }) => ({ error: event.error }) },
            target: 'readingBack',
          },
          {
            target: 'failed',
            actions: {
              type: 'fail',
              params: { message: WRITE_MESSAGES.lost, deviceKept: 'unknown' } as WriteFailure,
            },
          },
        ],
      },
    },
    readingBack: {
      invoke: {
        src: 'readBack',
        input: ({ context }) => ({ link: (context.request as WriteRequest).link }),
        onDone: { target: 'verifying', actions: assign({ readBack: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: {
            type: 'fail',
            params: { message: WRITE_MESSAGES.unreadable, deviceKept: 'unknown' } as WriteFailure,
          },
        },
      },
    },
    verifying: {
      always: [
        { guard: 'holdsWritten', target: 'done' },
        {
          guard: 'holdsOld',
          target: 'failed',
          actions: {
            type: 'fail',
            params: { message: WRITE_MESSAGES.kept, deviceKept: 'old' } as WriteFailure,
          },
        },
        {
          target: 'failed',
          actions: assign({
            failure: ({ context }) => ({
              message: WRITE_MESSAGES.different(
                differingSettings(
                  context.product.config,
                  context.frame as Uint8Array,
                  (context.readBack as ReadConfiguration).frame,
                ),
              ),
              deviceKept: 'different' as const,
            }),
          }),
        },
      ],
    },
    done: {
      entry: {
        type: 'reportVerified',
        params: ({ context }) => ({
          request: context.request as WriteRequest,
          readBack: context.readBack as ReadConfiguration,
        }),
      },
      on: { 'config.write': startWrite, 'config.dismiss': 'idle' },
    },
    invalid: {
      entry: { type: 'reportInvalid', params: ({ context }) => ({ fieldErrors: context.fieldErrors }) },
      on: { 'config.write': startWrite, 'config.dismiss': 'idle' },
    },
    failed: {
      entry: {
        type: 'reportFailed',
        params: ({ context }) => ({ failure: context.failure as WriteFailure }),
      },
      on: { 'config.write': startWrite, 'config.dismiss': 'idle' },
    },
  },
});
