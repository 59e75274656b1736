import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type InputFrom, toPromise, waitFor } from 'xstate';
import { editKey, sunspecConfigMachine, type Tools } from '../../machines/sunspec/sunspec-config-machine.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import { loadSource } from '../../src/features/sunspec/sunspec-actors.ts';
import { buildWrites } from '../../src/sunspec/sunspec-writes.ts';
import { bundled, catalogue } from './fixtures.ts';

const codec = await loadCodec();
const tools: Tools = { bundled, catalogue, crc16: (bytes) => codec.crc16(bytes) };

function start(prepare = fromPromise<Tools>(async () => tools)) {
  const actor = createActor(sunspecConfigMachine.provide({ actors: { prepare, load: loadSource } }));
  actor.start();
  return actor;
}

async function withDemo() {
  const actor = start();
  await waitFor(actor, (s) => s.matches('ready'));
  actor.send({ type: 'sunspec.loadDemo' });
  await waitFor(actor, (s) => s.matches('ready') && s.context.loaded !== null);
  const settings = actor.getSnapshot().context.loaded?.device.models.findIndex((m) => m.id === 121) ?? -1;
  return { actor, settings };
}

describe('the configurator machine', () => {
  it('says why it cannot start, and starts on retry', async () => {
    let calls = 0;
    const actor = start(
      fromPromise<Tools>(async () => {
        calls++;
        if (calls === 1) throw new Error('/assets/codec.wasm: cannot be fetched: HTTP 404');
        return tools;
      }),
    );
    await waitFor(actor, (s) => s.matches('unavailable'));
    expect(actor.getSnapshot().context.error).toBe('/assets/codec.wasm: cannot be fetched: HTTP 404');
    actor.send({ type: 'sunspec.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
  });

  it('reads a device asked for before the tools are prepared once they are, and only once', async () => {
    let prepared: (tools: Tools) => void = () => undefined;
    let loads = 0;
    const actor = createActor(
      sunspecConfigMachine.provide({
        actors: {
          prepare: fromPromise<Tools>(() => new Promise((resolve) => (prepared = resolve))),
          load: fromPromise(({ input }: { input: InputFrom<typeof loadSource> }) => {
            loads += 1;
            return toPromise(createActor(loadSource, { input }).start());
          }),
        },
      }),
    ).start();
    actor.send({ type: 'sunspec.loadDemo' });
    // A second press, of another kind, while the first waits: nothing more is asked.
    actor.send({ type: 'sunspec.loadDump', file: new File(['5375 6e53'], 'other.hex') });
    expect(actor.getSnapshot().matches('preparing')).toBe(true);
    expect(actor.getSnapshot().context.request).toEqual({ kind: 'demo' });
    prepared(tools);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(loads).toBe(1);
    expect(actor.getSnapshot().context).toMatchObject({ request: null, error: null });
    expect(actor.getSnapshot().context.loaded?.source).toBe('Demo SunSpec device');
  });

  it('keeps a valid edit as a pending change with its write request, and drops it when set back', async () => {
    const { actor, settings } = await withDemo();
    actor.send({ type: 'sunspec.edit', model: settings, path: 'WMax', text: '9000' });
    const { edits, loaded } = actor.getSnapshot().context;
    expect(edits[editKey(settings, 'WMax')]).toMatchObject({ value: 9000, error: null });
    const writes = buildWrites(loaded?.device ?? { marker: 0, models: [] }, edits, tools.crc16);
    expect(writes.map((w) => w.requests.map((r) => [r.address, r.count]))).toEqual([[[40152, 1]]]);
    actor.send({ type: 'sunspec.edit', model: settings, path: 'WMax', text: '10000' });
    expect(actor.getSnapshot().context.edits).toEqual({});
  });

  it('keeps an invalid edit with its message and will not apply it', async () => {
    const { actor, settings } = await withDemo();
    actor.send({ type: 'sunspec.edit', model: settings, path: 'WMax', text: '-1' });
    expect(actor.getSnapshot().context.edits[editKey(settings, 'WMax')]?.error).toBe(
      'WMax (WMax) must be between 0 and 65534 W',
    );
    expect(actor.getSnapshot().can({ type: 'sunspec.apply' })).toBe(false);
  });

  it('applies the edits to the demo device and reads the new values back', async () => {
    const { actor, settings } = await withDemo();
    actor.send({ type: 'sunspec.edit', model: settings, path: 'VArAct', text: '2' });
    actor.send({ type: 'sunspec.apply' });
    const { edits, notice, loaded } = actor.getSnapshot().context;
    expect(edits).toEqual({});
    expect(notice).toMatch(/^The demo device took 1 write request/);
    expect(loaded?.device.models[settings]?.points.find((p) => p.path === 'VArAct')?.value).toBe(2);
  });

  it('names what is wrong with a dump and keeps the device shown', async () => {
    const { actor } = await withDemo();
    actor.send({ type: 'sunspec.loadDump', file: new File(['5375 6e53 fff'], 'odd.hex') });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(
      'odd.hex: the dump has 11 hex digits, which is not a whole number of registers (4 digits each)',
    );
    expect(actor.getSnapshot().context.loaded?.source).toBe('Demo SunSpec device');
  });

  it('decodes a model once its definition is added, keeping pending edits', async () => {
    const { actor, settings } = await withDemo();
    actor.send({ type: 'sunspec.edit', model: settings, path: 'WMax', text: '8000' });
    const vendor = {
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
    actor.send({
      type: 'sunspec.addDefinitions',
      files: [new File([JSON.stringify(vendor)], 'model_64900.json')],
    });
    await waitFor(actor, (s) => s.matches('ready') && (s.context.loaded?.userModels.length ?? 0) > 0);
    const { loaded, edits } = actor.getSnapshot().context;
    expect(loaded?.device.models.at(-1)?.points.find((p) => p.path === 'Code')?.value).toBe(0xbeef);
    expect(Object.keys(edits)).toEqual([editKey(settings, 'WMax')]);
  });

  it('loads the good files of a folder and lists the bad ones with their reasons; none good is an error', async () => {
    const { actor } = await withDemo();
    const vendor = {
      id: 64900,
      group: {
        name: 'vendor-block',
        type: 'group',
        points: [
          { name: 'ID', type: 'uint16' },
          { name: 'L', type: 'uint16' },
          { name: 'serial-number', type: 'uint32' },
        ],
      },
    };
    actor.send({
      type: 'sunspec.addDefinitions',
      files: [
        new File([JSON.stringify(vendor)], 'model_64900.json'),
        new File(['{"id": 64901'], 'model_64901.json'),
      ],
    });
    await waitFor(actor, (s) => s.matches('ready') && (s.context.loaded?.userModels.length ?? 0) > 0);
    const { loaded, error } = actor.getSnapshot().context;
    expect(error).toBeNull();
    expect(loaded?.skipped).toEqual([
      { name: 'model_64901.json', reason: expect.stringMatching(/^not valid JSON/) },
    ]);
    expect(loaded?.device.models.at(-1)?.definition?.group.name).toBe('vendor-block');

    actor.send({ type: 'sunspec.addDefinitions', files: [new File(['nope'], 'model_64902.json')] });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toMatch(
      /^No definition loaded: model_64902\.json: not valid JSON/,
    );
  });
});
