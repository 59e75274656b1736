import { expect } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { editKey, sunspecConfigMachine, type Tools } from '../../machines/sunspec/sunspec-config-machine.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import { loadSource } from '../../src/features/sunspec/sunspec-actors.ts';
import { DemoSunSpecDevice } from '../../src/sunspec/demo-device.ts';
import { formatDump } from '../../src/sunspec/register-dump.ts';
import { bundled, catalogue } from '../sunspec/fixtures.ts';
import { controlledActor } from './fakes.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const codec = await loadCodec();
const tools: Tools = { bundled, catalogue, crc16: (bytes) => codec.crc16(bytes) };
const DEMO = 'Demo SunSpec device';
/** A vendor model the bundled catalogue lacks and the demo device holds. */
const VENDOR = {
  id: 64900,
  group: {
    name: 'vendor',
    type: 'group',
    points: [
      { name: 'ID', type: 'uint16' },
      { name: 'L', type: 'uint16' },
      { name: 'Serial', type: 'uint32' },
      { name: 'Code', type: 'uint16' },
      { name: 'Pad', type: 'pad' },
    ],
  },
};
const demoDump = () => {
  const demo = new DemoSunSpecDevice(catalogue);
  return formatDump(demo.start, demo.registers);
};

/**
 * Events and state checks that run one path of the SunSpec configurator model against the real
 * machine and its real `load` actor (demo device, dump files, definition files); only the start-up
 * (`prepare`: catalogue and Wasm codec) is answered by hand.
 */
export function sunspecModelDriver(): ModelDriver {
  const prepare = controlledActor<Tools, unknown>();
  const actor = createActor(
    sunspecConfigMachine.provide({ actors: { prepare: prepare.logic, load: loadSource } }),
    {
      inspect: recordCoverage,
    },
  ).start();
  const snap = () => actor.getSnapshot();
  /** The index of the inverter settings model (121) in the device shown. */
  const settings = () => snap().context.loaded?.device.models.findIndex((m) => m.id === 121) ?? -1;
  const pointValue = (path: string) =>
    snap().context.loaded?.device.models[settings()]?.points.find((p) => p.path === path)?.value;
  let loads = 0;
  /** Asks for a load; one asked for while the tools are prepared waits for them. */
  const load = async (event: Parameters<typeof actor.send>[0]) => {
    loads += 1;
    actor.send(event);
    await waitFor(actor, (s) => !s.matches('loading'));
  };
  /** Still preparing, with `kind` asked for and waiting: the view shows it as being read. */
  const asked = (kind: string) => {
    expect(snap().matches('preparing')).toBe(true);
    expect(snap().context.request?.kind).toBe(kind);
    expect(snap().context.loaded).toBeNull();
    expect(snap().can({ type: 'sunspec.loadDemo' })).toBe(false);
    expect(prepare.pending()).toHaveLength(1);
  };
  const ready = (check: { source?: string | null; error?: string | null; notice?: string | null }) => {
    const s = snap();
    expect(s.matches('ready')).toBe(true);
    if (check.source !== undefined) expect(s.context.loaded?.source ?? null).toBe(check.source);
    expect(s.context.error).toBe(check.error ?? null);
    if (check.notice !== undefined) expect(s.context.notice).toBe(check.notice);
  };
  const noEdits = () => {
    ready({ source: DEMO });
    expect(snap().context.edits).toEqual({});
    expect(snap().can({ type: 'sunspec.apply' })).toBe(false);
  };
  return {
    events: {
      'tools.ready': async () => {
        await prepare.last().resolve(tools);
        await waitFor(actor, (s) => s.matches('ready'));
      },
      'tools.fail': async () => {
        await prepare.last().reject(new Error('/assets/codec.wasm: cannot be fetched: HTTP 404'));
      },
      'sunspec.retry': () => actor.send({ type: 'sunspec.retry' }),
      'sunspec.loadDemo': () => load({ type: 'sunspec.loadDemo' }),
      'sunspec.loadDump': () =>
        load({ type: 'sunspec.loadDump', file: new File([demoDump()], 'inverter-40000.hex') }),
      'sunspec.loadBadDump': () =>
        load({ type: 'sunspec.loadDump', file: new File(['5375 6e53 fff'], 'odd.hex') }),
      'sunspec.addDefinitions': () =>
        load({
          type: 'sunspec.addDefinitions',
          files: [new File([JSON.stringify(VENDOR)], 'model_64900.json')],
        }),
      'sunspec.select': () => actor.send({ type: 'sunspec.select', model: settings() }),
      'sunspec.search': () => actor.send({ type: 'sunspec.search', query: 'WMax' }),
      'sunspec.edit': () =>
        actor.send({ type: 'sunspec.edit', model: settings(), path: 'VArAct', text: '2' }),
      'sunspec.editInvalid': () =>
        actor.send({ type: 'sunspec.edit', model: settings(), path: 'WMax', text: '-1' }),
      'sunspec.revert': () => {
        for (const edit of Object.values(snap().context.edits)) {
          actor.send({ type: 'sunspec.revert', model: edit.model, path: edit.path });
        }
      },
      'sunspec.discard': () => actor.send({ type: 'sunspec.discard' }),
      'sunspec.apply': () => actor.send({ type: 'sunspec.apply' }),
      'sunspec.dismiss': () => actor.send({ type: 'sunspec.dismiss' }),
    },
    states: {
      preparing: () => {
        expect(snap().matches('preparing')).toBe(true);
        expect(snap().context.request).toBeNull();
        expect(snap().context.error).toBeNull();
        expect(snap().can({ type: 'sunspec.loadDemo' })).toBe(true);
        expect(prepare.pending()).toHaveLength(1);
      },
      unavailable: () => {
        expect(snap().matches('unavailable')).toBe(true);
        expect(snap().context.error).toBe('/assets/codec.wasm: cannot be fetched: HTTP 404');
        expect(snap().can({ type: 'sunspec.retry' })).toBe(true);
        expect(snap().context.request).toBeNull();
      },
      demoAsked: () => {
        asked('demo');
        expect(snap().context.error).toBeNull();
      },
      unavailableAsked: () => {
        expect(snap().matches('unavailable')).toBe(true);
        expect(snap().context.error).toBe('/assets/codec.wasm: cannot be fetched: HTTP 404');
        expect(snap().context.request?.kind).toBe('demo');
      },
      dumpAsked: () => asked('dump'),
      empty: () => {
        ready({ source: null });
        expect(loads).toBe(0);
      },
      definitionsRefused: () => ready({ source: null, error: 'Load a device first, then add definitions.' }),
      demo: () => {
        noEdits();
        expect(snap().context.loaded?.demo).not.toBeNull();
        expect(pointValue('VArAct')).not.toBe(2);
      },
      modelSelected: () => {
        noEdits();
        expect(snap().context.selected).toBe(settings());
      },
      searched: () => {
        noEdits();
        expect(snap().context.query).toBe('WMax');
      },
      edited: () => {
        ready({ source: DEMO });
        expect(snap().context.edits[editKey(settings(), 'VArAct')]).toMatchObject({ value: 2, error: null });
        expect(snap().can({ type: 'sunspec.apply' })).toBe(true);
      },
      invalidEdit: () => {
        ready({ source: DEMO });
        expect(snap().context.edits[editKey(settings(), 'WMax')]?.error).toBe(
          'WMax (WMax) must be between 0 and 65534 W',
        );
        expect(snap().can({ type: 'sunspec.apply' })).toBe(false);
      },
      applied: () => {
        ready({
          source: DEMO,
          notice: 'The demo device took 1 write request; the values below are read back from it.',
        });
        expect(snap().context.edits).toEqual({});
        // Read back from the demo device, not copied from the edit.
        expect(pointValue('VArAct')).toBe(2);
      },
      reverted: noEdits,
      discarded: noEdits,
      dismissed: () => ready({ source: DEMO, error: null, notice: null }),
      dumpRefused: () =>
        ready({
          source: DEMO,
          error:
            'odd.hex: the dump has 11 hex digits, which is not a whole number of registers (4 digits each)',
        }),
      dumpShown: () => {
        ready({ source: 'inverter-40000.hex' });
        expect(snap().context.loaded?.demo).toBeNull();
        expect(pointValue('WMax')).toBeDefined();
      },
      vendorDecoded: () => {
        ready({ source: DEMO });
        expect(snap().context.loaded?.userModels.map((m) => m.id)).toEqual([64900]);
        expect(
          snap()
            .context.loaded?.device.models.at(-1)
            ?.points.find((p) => p.path === 'Code')?.value,
        ).toBe(0xbeef);
      },
    },
  };
}
