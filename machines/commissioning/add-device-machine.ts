import { assign, fromCallback, fromPromise, not, setup } from 'xstate';
import { serialNumberPattern } from '../../contracts/catalogue.ts';
import {
  CLAIM_CODE_PATTERN,
  labelFromText,
  normalizeClaimCode,
  printedClaimCode,
} from '../../contracts/claims.ts';
import type { ClaimedDevice, ClaimRequest } from '../../contracts/installs.ts';
import type { BleTarget, BleTransport } from '../../src/ble/transport.ts';

/** A model a device may be added as: its id, display name, serial prefix and Bluetooth target. */
export interface ModelChoice {
  modelId: string;
  name: string;
  prefix: string;
  /** What the browser's chooser looks for to read a device of this model over Bluetooth. */
  target: BleTarget;
}

/**
 * What a serial read from a code, typed or reported by a device says: the serial, its model and,
 * from a label's QR code, its claim code.
 */
export interface ReadSerial {
  serial: string;
  modelId: string | null;
  claimCode?: string | null;
}

/** What went wrong outside the fields: which step (its title) and why, in words. */
export interface AddDeviceProblem {
  title: string;
  message: string;
}

/** What is wrong with a field, in words, shown on the field; null where nothing is. */
export interface AddDeviceFieldErrors {
  serial: string | null;
  claimCode: string | null;
}

const NO_FIELD_ERRORS: AddDeviceFieldErrors = { serial: null, claimCode: null };

export interface AddDeviceContext {
  siteId: number;
  models: ModelChoice[];
  /** The browser's Bluetooth, to read a device's serial; null where there is none. */
  bluetooth: BleTransport | null;
  serial: string;
  /** The claim code printed on the device's label, as typed or scanned. */
  claimCode: string;
  modelId: string;
  name: string;
  /** The camera's picture while scanning, for the preview. */
  stream: MediaStream | null;
  /** Why the last scan, reading or claim did not work. */
  error: AddDeviceProblem | null;
  /** What is wrong with the serial (checked as it is typed) and the claim code (when saved). */
  fieldErrors: AddDeviceFieldErrors;
  /** The device, once claimed for the site. */
  installed: ClaimedDevice | null;
}

export type AddDeviceEvent =
  | { type: 'add.edit'; serial?: string; claimCode?: string; modelId?: string; name?: string }
  | { type: 'add.scan' }
  | { type: 'add.bluetooth' }
  | { type: 'add.cancel' }
  | { type: 'add.save' }
  | { type: 'scan.stream'; stream: MediaStream }
  | { type: 'scan.found'; text: string }
  | { type: 'scan.failed'; message: string };

/**
 * The serial in a scanned code's text (a label's QR code `SN:HX5K-24-000123;CC:K7M2-…`, a bare
 * serial, or one inside a longer text such as `SN:HX5K-24-000123`), the model whose prefix it has,
 * and the claim code when the code holds one.
 * @example serialFromText('sn: hx5k-24-000123', models) // { serial: 'HX5K-24-000123', modelId: 'HX-5000', claimCode: null }
 */
export function serialFromText(text: string, models: readonly ModelChoice[]): ReadSerial | null {
  const label = labelFromText(text);
  if (!label) return null;
  return { serial: label.serial, modelId: modelOfSerial(label.serial, models), claimCode: label.claimCode };
}

/** The model whose serial prefix a serial has, or null. */
export function modelOfSerial(serial: string, models: readonly ModelChoice[]): string | null {
  const prefix = serial.trim().toUpperCase().split('-')[0];
  return models.find((model) => model.prefix === prefix)?.modelId ?? null;
}

/** The titles of what went wrong, by step: a failed scan is told as a scan. */
export const ADD_DEVICE_TITLES = {
  scan: 'The code was not read',
  bluetooth: 'Nothing was read over Bluetooth',
  claim: 'The device was not added',
} as const;

export const ADD_DEVICE_MESSAGES = {
  chooseModel: 'Choose the model first.',
  noBluetooth: 'This browser has no Bluetooth: type the serial number, or scan its code.',
  noneChosen: 'No device was chosen.',
  notASerial: (text: string) =>
    `The code holds “${text.slice(0, 60)}”, which is not a serial number (they look like HX5K-24-000123). Scan the serial's code, or type it.`,
  needsSerial: 'Give the serial number from the label.',
  needsClaimCode: 'Give the claim code from the label, printed beside the serial.',
  // With a model chosen, the field's description shows the form already: the error does not repeat it.
  serialForm: (model: ModelChoice | undefined) =>
    model
      ? `This is not a ${model.name} serial number: check it against the label.`
      : 'Serial numbers look like HX5K-24-000123: the model’s prefix, a two-digit year and six digits.',
  noSuchPrefix: (prefix: string) =>
    `No model’s serial numbers begin with ${prefix}: check the label, or choose the model and read the serial over Bluetooth.`,
  badClaimCode:
    'The claim code has 16 letters and digits, printed on the label beside the serial (such as K7M2-Q9XD-4TRW-8HNB).',
} as const;

/** A serial number of the model's form, to show what one looks like. */
export function exampleSerial(model: ModelChoice): string {
  return `${model.prefix}-24-000123`;
}

/** A serial number typed so far: a prefix, then a dash, up to two digits, a dash, up to six digits. */
const SERIAL_SO_FAR = /^([A-Z0-9]{1,8})(?:-(\d{0,2})(?:-(\d{0,6}))?)?$/;

/**
 * What is wrong with a serial number as typed so far, or null: while typing, only what no more
 * typing can mend (a character out of place, a prefix no model has); once `done` (saved), also
 * what is missing.
 * @example serialProblem('HX5K-2', models, 'HX-5000', false) // null (it can still become one)
 * @example serialProblem('HX5K-2', models, 'HX-5000', true) // 'This is not a … serial number: check it against the label.'
 */
export function serialProblem(
  text: string,
  models: readonly ModelChoice[],
  modelId: string,
  done: boolean,
): string | null {
  const serial = text.trim().toUpperCase();
  if (serial === '') return done ? ADD_DEVICE_MESSAGES.needsSerial : null;
  const form = ADD_DEVICE_MESSAGES.serialForm(models.find((m) => m.modelId === modelId));
  const parts = SERIAL_SO_FAR.exec(serial);
  if (!parts) return form;
  const prefix = parts[1] as string;
  const dashed = serial.includes('-');
  const known = models.some((m) => (dashed ? m.prefix === prefix : m.prefix.startsWith(prefix)));
  if (!known) return ADD_DEVICE_MESSAGES.noSuchPrefix(prefix);
  return done && !serialNumberPattern.test(serial) ? form : null;
}

/** What the claim code field says when saved, or null. */
function claimCodeProblem(text: string): string | null {
  if (text.trim() === '') return ADD_DEVICE_MESSAGES.needsClaimCode;
  return CLAIM_CODE_PATTERN.test(normalizeClaimCode(text)) ? null : ADD_DEVICE_MESSAGES.badClaimCode;
}

/** The message of a failure, without the field's name the service puts before it ("claimCode: …"), as a sentence. */
function messageOf(error: unknown, field?: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!field || !message.startsWith(`${field}: `)) return message;
  const rest = message.slice(field.length + 2);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** The field a refused claim names (the service's `field`), when it is one of the dialog's. */
function fieldOf(error: unknown): keyof AddDeviceFieldErrors | null {
  const field = (error as { field?: unknown } | null)?.field;
  return field === 'serial' || field === 'claimCode' ? field : null;
}

/**
 * The serial a device reports over Bluetooth: the person chooses it in the browser's chooser,
 * which shows the model's devices only; a device advertises its serial as its name.
 * @throws an Error saying why nothing was read (no model, no Bluetooth, the chooser closed, or
 *   the transport's own failure)
 */
export async function readSerialOverBluetooth(input: {
  model: ModelChoice | undefined;
  bluetooth: BleTransport | null;
}): Promise<ReadSerial> {
  if (!input.model) throw new Error(ADD_DEVICE_MESSAGES.chooseModel);
  if (!input.bluetooth) throw new Error(ADD_DEVICE_MESSAGES.noBluetooth);
  const link = await input.bluetooth.choose(input.model.target);
  if (!link) throw new Error(ADD_DEVICE_MESSAGES.noneChosen);
  return { serial: link.name, modelId: input.model.modelId };
}

/**
 * Adding a device to a site: its serial and claim code are scanned from the label's QR code with
 * the camera, or typed from the label (the serial may also be read from the device over
 * Bluetooth); then it is named and claimed for the site, and the page's loaders run again
 * (`refresh`). No secret changes hands: the device is given its own over Bluetooth. A failed claim
 * keeps everything typed.
 */
export const addDeviceMachine = setup({
  types: {
    context: {} as AddDeviceContext,
    events: {} as AddDeviceEvent,
    input: {} as { siteId: number; models: ModelChoice[]; bluetooth: BleTransport | null },
  },
  actors: {
    /** Opens the camera, reports its stream, then the first code it reads; closes it when stopped. */
    scanCode: fromCallback<AddDeviceEvent>(() => () => undefined),
    /** Lets the person choose a device over Bluetooth and answers the serial it reports. */
    readOverBluetooth: fromPromise<
      ReadSerial,
      { model: ModelChoice | undefined; bluetooth: BleTransport | null }
    >(({ input }) => readSerialOverBluetooth(input)),
    claim: fromPromise<ClaimedDevice, { siteId: number; body: ClaimRequest }>(async () => {
      throw new Error('The claim actor is not provided');
    }),
    /** Runs every loader on the page again, as after any save; provided by the app. */
    refresh: fromPromise<void>(async () => undefined),
  },
  actions: {
    take: assign(({ context }, read: ReadSerial) => ({
      serial: read.serial,
      modelId: read.modelId ?? context.modelId,
      // A scanned code shows as it is printed, to be checked against the label.
      claimCode: read.claimCode ? printedClaimCode(read.claimCode) : context.claimCode,
      error: null,
      fieldErrors: NO_FIELD_ERRORS,
    })),
    /** Shows why the scan or the reading did not work, titled as that step. */
    fail: assign((_, problem: AddDeviceProblem) => ({ error: problem })),
  },
  guards: {
    fieldsReady: ({ context }) =>
      serialProblem(context.serial, context.models, context.modelId, true) === null &&
      claimCodeProblem(context.claimCode) === null,
  },
}).createMachine({
  id: 'addDevice',
  context: ({ input }) => ({
    siteId: input.siteId,
    models: input.models,
    bluetooth: input.bluetooth,
    serial: '',
    claimCode: '',
    modelId: input.models[0]?.modelId ?? '',
    name: '',
    stream: null,
    error: null,
    fieldErrors: NO_FIELD_ERRORS,
    installed: null,
  }),
  initial: 'entering',
  // The fields can be typed in at any time (while the camera looks for a code, too): no keystroke
  // is dropped. A code read after the serial was typed replaces it. The serial is checked as it is
  // typed; the claim code's message stays until the code is typed again.
  on: {
    'add.edit': {
      actions: assign(({ context, event }) => {
        const serial = event.serial ?? context.serial;
        const inferred = event.serial !== undefined ? modelOfSerial(serial, context.models) : null;
        const modelId = event.modelId ?? inferred ?? context.modelId;
        return {
          serial,
          claimCode: event.claimCode ?? context.claimCode,
          modelId,
          name: event.name ?? context.name,
          error: null,
          fieldErrors: {
            serial: serialProblem(serial, context.models, modelId, false),
            claimCode: event.claimCode !== undefined ? null : context.fieldErrors.claimCode,
          },
        };
      }),
    },
  },
  states: {
    entering: {
      on: {
        'add.scan': { target: 'scanning', actions: assign({ error: null }) },
        'add.bluetooth': { target: 'reading', actions: assign({ error: null }) },
        'add.save': [
          {
            guard: not('fieldsReady'),
            actions: assign(({ context }) => ({
              error: null,
              fieldErrors: {
                serial: serialProblem(context.serial, context.models, context.modelId, true),
                claimCode: claimCodeProblem(context.claimCode),
              },
            })),
          },
          { target: 'saving' },
        ],
      },
    },
    scanning: {
      invoke: { src: 'scanCode' },
      exit: assign({ stream: null }),
      on: {
        'scan.stream': { actions: assign({ stream: ({ event }) => event.stream }) },
        'scan.found': [
          {
            guard: ({ context, event }) => serialFromText(event.text, context.models) !== null,
            target: 'entering',
            actions: {
              type: 'take',
              params: ({ context, event }) => serialFromText(event.text, context.models) as ReadSerial,
            },
          },
          {
            target: 'entering',
            actions: {
              type: 'fail',
              params: ({ event }) => ({
                title: ADD_DEVICE_TITLES.scan,
                message: ADD_DEVICE_MESSAGES.notASerial(event.text),
              }),
            },
          },
        ],
        'scan.failed': {
          target: 'entering',
          actions: {
            type: 'fail',
            params: ({ event }) => ({ title: ADD_DEVICE_TITLES.scan, message: event.message }),
          },
        },
        'add.cancel': 'entering',
      },
    },
    reading: {
      invoke: {
        src: 'readOverBluetooth',
        input: ({ context }) => ({
          model: context.models.find((m) => m.modelId === context.modelId),
          bluetooth: context.bluetooth,
        }),
        onDone: { target: 'entering', actions: { type: 'take', params: ({ event }) => event.output } },
        onError: {
          target: 'entering',
          actions: {
            type: 'fail',
            params: ({ event }) => ({ title: ADD_DEVICE_TITLES.bluetooth, message: messageOf(event.error) }),
          },
        },
      },
      on: { 'add.cancel': 'entering' },
    },
    saving: {
      invoke: {
        src: 'claim',
        input: ({ context }) => ({
          siteId: context.siteId,
          body: {
            serial: context.serial.trim(),
            claimCode: normalizeClaimCode(context.claimCode),
            ...(context.name.trim() ? { name: context.name.trim() } : {}),
          },
        }),
        onDone: { target: 'refreshing', actions: assign({ installed: ({ event }) => event.output }) },
        // A refusal about the serial or the code shows on that field; any other above the buttons.
        onError: {
          target: 'entering',
          actions: assign(({ event }) => {
            const field = fieldOf(event.error);
            if (!field) return { error: { title: ADD_DEVICE_TITLES.claim, message: messageOf(event.error) } };
            return { fieldErrors: { ...NO_FIELD_ERRORS, [field]: messageOf(event.error, field) } };
          }),
        },
      },
    },
    // The claimed device shows at once, while the site's page loads again behind the dialog with
    // it, the same way every save is shown.
    refreshing: {
      invoke: {
        src: 'refresh',
        // The device is on the site either way: a loader that fails shows its own error.
        onDone: 'installed',
        onError: 'installed',
      },
    },
    installed: { type: 'final' },
  },
});
