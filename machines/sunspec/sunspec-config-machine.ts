import { assign, fromPromise, setup } from 'xstate';
import { errorMessage } from '../../contracts/error-message.ts';
import type { SkippedFile } from '../../src/sunspec/catalogue.ts';
import type { DecodedDevice, ModelCatalogue } from '../../src/sunspec/decode-device.ts';
import { decodeDevice } from '../../src/sunspec/decode-device.ts';
import type { DemoSunSpecDevice } from '../../src/sunspec/demo-device.ts';
import { parseEdit } from '../../src/sunspec/edit-point.ts';
import type { ModelDef } from '../../src/sunspec/model-schema.ts';
import type { PointValue } from '../../src/sunspec/point-codec.ts';
import type { RegisterDump } from '../../src/sunspec/register-dump.ts';
import { buildWrites } from '../../src/sunspec/sunspec-writes.ts';

/** One pending edit: what was typed, and the value it stands for or why it is refused. */
export interface PendingEdit {
  model: number;
  path: string;
  text: string;
  value: PointValue;
  error: string | null;
}

export interface Tools {
  catalogue: ModelCatalogue;
  bundled: ModelDef[];
  crc16: (bytes: Uint8Array) => number;
}

export interface Loaded {
  dump: RegisterDump;
  device: DecodedDevice;
  source: string;
  demo: DemoSunSpecDevice | null;
  userModels: ModelDef[];
  catalogue: ModelCatalogue;
  /** Definition files of the last "add definitions" that were left out, with why. */
  skipped: SkippedFile[];
}

export type LoadRequest =
  | { kind: 'demo' }
  | { kind: 'dump'; file: File }
  | { kind: 'definitions'; files: File[] };

export interface SunSpecContext {
  tools: Tools | null;
  /** The load asked for and not done yet: read now, or as soon as the tools are prepared. */
  request: LoadRequest | null;
  loaded: Loaded | null;
  selected: number;
  query: string;
  edits: Record<string, PendingEdit>;
  error: string | null;
  notice: string | null;
}

export type SunSpecEvent =
  | { type: 'sunspec.retry' }
  | { type: 'sunspec.loadDemo' }
  | { type: 'sunspec.loadDump'; file: File }
  | { type: 'sunspec.addDefinitions'; files: File[] }
  | { type: 'sunspec.select'; model: number }
  | { type: 'sunspec.search'; query: string }
  | { type: 'sunspec.edit'; model: number; path: string; text: string }
  | { type: 'sunspec.revert'; model: number; path: string }
  | { type: 'sunspec.discard' }
  | { type: 'sunspec.apply' }
  | { type: 'sunspec.dismiss' };

export const editKey = (model: number, path: string) => `${model}:${path}`;

type LoadEvent = Extract<
  SunSpecEvent,
  { type: 'sunspec.loadDemo' | 'sunspec.loadDump' | 'sunspec.addDefinitions' }
>;

function requestOf(event: LoadEvent): LoadRequest {
  if (event.type === 'sunspec.loadDump') return { kind: 'dump', file: event.file };
  if (event.type === 'sunspec.addDefinitions') return { kind: 'definitions', files: event.files };
  return { kind: 'demo' };
}

/**
 * The SunSpec configurator: prepare the catalogue and the codec, load a device (the demo device or
 * a register dump) or extra definitions, keep pending edits, and apply them to the demo device.
 * A failed load keeps what was shown before. The actors `prepare` and `load` do the I/O.
 *
 * A device asked for while the tools are being prepared (the page may prepare them only once the
 * person starts using it) waits for them and is read then, once: the press is not lost, and a
 * second press meanwhile asks nothing more. If the tools cannot be prepared, it waits for Retry.
 */
export const sunspecConfigMachine = setup({
  types: {
    context: {} as SunSpecContext,
    events: {} as SunSpecEvent,
  },
  actors: {
    prepare: fromPromise<Tools>(async () => {
      throw new Error('The prepare actor is not provided');
    }),
    load: fromPromise<Loaded, { request: LoadRequest; tools: Tools; loaded: Loaded | null }>(async () => {
      throw new Error('The load actor is not provided');
    }),
  },
  guards: {
    canApply: ({ context }) => {
      if (!context.loaded?.demo || !context.tools) return false;
      const edits = Object.values(context.edits);
      return edits.length > 0 && edits.every((e) => e.error === null);
    },
    hasEdits: ({ context }) => Object.keys(context.edits).length > 0,
    nothingAsked: ({ context }) => context.request === null,
    asked: ({ context }) => context.request !== null,
  },
  actions: {
    ask: assign(({ event }) => ({
      request: requestOf(event as LoadEvent),
      error: null,
      notice: null,
    })),
    edit: assign(({ context, event }) => {
      if (event.type !== 'sunspec.edit' || !context.loaded) return {};
      const key = editKey(event.model, event.path);
      const point = context.loaded.device.models[event.model]?.points.find((p) => p.path === event.path);
      if (!point) return {};
      const { [key]: _, ...others } = context.edits;
      try {
        const value = parseEdit(point, event.text);
        if (String(value) === String(point.value)) return { edits: others, notice: null };
        return { edits: { ...others, [key]: { ...event, value, error: null } }, notice: null };
      } catch (error) {
        return {
          edits: {
            ...others,
            [key]: {
              model: event.model,
              path: event.path,
              text: event.text,
              value: null,
              error: errorMessage(error),
            },
          },
          notice: null,
        };
      }
    }),
    revert: assign(({ context, event }) => {
      if (event.type !== 'sunspec.revert') return {};
      const { [editKey(event.model, event.path)]: _, ...others } = context.edits;
      return { edits: others };
    }),
    apply: assign(({ context }) => {
      const { loaded, tools } = context;
      if (!loaded?.demo || !tools) return {};
      try {
        const writes = buildWrites(loaded.device, context.edits, tools.crc16);
        for (const w of writes) for (const r of w.requests) loaded.demo.write(r.frame, tools.crc16);
        const count = writes.reduce((n, w) => n + w.requests.length, 0);
        return {
          loaded: {
            ...loaded,
            device: decodeDevice(loaded.demo.read(), loaded.catalogue),
            dump: loaded.demo.read(),
          },
          edits: {},
          error: null,
          notice: `The demo device took ${count} write request${count === 1 ? '' : 's'}; the values below are read back from it.`,
        };
      } catch (error) {
        return { error: errorMessage(error) };
      }
    }),
  },
}).createMachine({
  id: 'sunspecConfig',
  context: {
    tools: null,
    request: null,
    loaded: null,
    selected: 0,
    query: '',
    edits: {},
    error: null,
    notice: null,
  },
  initial: 'preparing',
  states: {
    preparing: {
      invoke: {
        src: 'prepare',
        onDone: [
          {
            guard: 'asked',
            target: 'loading',
            actions: assign({ tools: ({ event }) => event.output, error: null }),
          },
          { target: 'ready', actions: assign({ tools: ({ event }) => event.output, error: null }) },
        ],
        onError: {
          target: 'unavailable',
          actions: assign({ error: ({ event }) => errorMessage(event.error) }),
        },
      },
      on: {
        'sunspec.loadDemo': { guard: 'nothingAsked', actions: 'ask' },
        'sunspec.loadDump': { guard: 'nothingAsked', actions: 'ask' },
      },
    },
    unavailable: {
      // The reason it could not start goes with the retry: it is not a failed load to show.
      on: { 'sunspec.retry': { target: 'preparing', actions: assign({ error: null }) } },
    },
    ready: {
      on: {
        'sunspec.loadDemo': { target: 'loading', actions: 'ask' },
        'sunspec.loadDump': { target: 'loading', actions: 'ask' },
        'sunspec.addDefinitions': { target: 'loading', actions: 'ask' },
        'sunspec.select': { actions: assign({ selected: ({ event }) => event.model }) },
        'sunspec.search': { actions: assign({ query: ({ event }) => event.query }) },
        'sunspec.edit': { actions: 'edit' },
        'sunspec.revert': { actions: 'revert' },
        'sunspec.discard': { guard: 'hasEdits', actions: assign({ edits: {}, notice: null }) },
        'sunspec.apply': { guard: 'canApply', actions: 'apply' },
        'sunspec.dismiss': { actions: assign({ error: null, notice: null }) },
      },
    },
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({
          request: context.request as LoadRequest,
          tools: context.tools as Tools,
          loaded: context.loaded,
        }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            // New definitions re-read the same device: keep the place and the edits that still apply.
            const sameSource = context.loaded?.dump === event.output.dump;
            const { models } = event.output.device;
            const edits = Object.fromEntries(
              Object.entries(context.edits).filter(
                ([, e]) => sameSource && models[e.model]?.points.some((p) => p.path === e.path),
              ),
            );
            return {
              loaded: event.output,
              request: null,
              selected: sameSource ? context.selected : 0,
              edits,
              notice: null,
            };
          }),
        },
        onError: {
          target: 'ready',
          actions: assign({ request: null, error: ({ event }) => errorMessage(event.error) }),
        },
      },
    },
  },
});
