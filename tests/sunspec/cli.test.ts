import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import { DemoSunSpecDevice } from '../../src/sunspec/demo-device.ts';
import { formatDump } from '../../src/sunspec/register-dump.ts';
import { catalogue } from './fixtures.ts';

const bin = fileURLToPath(new URL('../../bin/sunspec.mjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'sunspec-'));
const file = (name: string, text: string) => {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
};
/** Runs `node bin/sunspec.mjs …` as a real process, as a firmware engineer would. */
const sunspec = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** A folder of model definition files: JSON values, or text as it is. */
const modelFolder = (files: Record<string, unknown>) => {
  const folder = mkdtempSync(join(scratch, 'models-'));
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(folder, name), typeof content === 'string' ? content : JSON.stringify(content));
  return folder;
};
/** A model 64900 (the demo's vendor block) with these points after ID and L, and these groups. */
const vendorModel = (name: string, points: unknown[], groups?: unknown[]) => ({
  id: 64900,
  group: {
    name,
    type: 'group',
    points: [{ name: 'ID', type: 'uint16' }, { name: 'L', type: 'uint16' }, ...points],
    ...(groups ? { groups } : {}),
  },
});

const demo = new DemoSunSpecDevice(catalogue);
const dump = file('demo.hex', formatDump(demo.start, demo.registers));
const codec = await loadCodec();

describe('sunspec decode', () => {
  it('prints every model as JSON with scale factors applied, null for not implemented, groups as arrays', () => {
    const run = sunspec('decode', dump);
    expect(run.status).toBe(0);
    const models = JSON.parse(run.stdout);
    expect(models.map((m: { id: number }) => m.id)).toEqual([
      1, 103, 120, 121, 122, 123, 160, 701, 702, 703, 704, 705, 802, 64900,
    ]);
    expect(models[0]).toEqual({
      id: 1,
      name: 'common',
      points: {
        Mn: 'Fleet Demo Energy',
        Md: 'FD-HYB-10K',
        Opt: 'BAT+MPPT2',
        Vr: '2.4.1',
        SN: 'FD10K-2026-000123',
        DA: 1,
      },
    });
    expect(models[1].points).toMatchObject({ A: 14.52, TmpTrns: null });
    expect(models[6].points.module[1]).toMatchObject({ IDStr: 'String B', DCV: 402.7 });
    expect(models[13]).toMatchObject({ id: 64900, name: null, length: 4 });
  });

  it('loads extra model definitions from --models, so a vendor model needs no code', () => {
    const folder = modelFolder({
      'model_64900.json': vendorModel('vendor', [
        { name: 'Code', type: 'uint32' },
        { name: 'Flags', type: 'uint16', sf: -1 },
      ]),
    });
    const models = JSON.parse(sunspec('decode', '--models', folder, dump).stdout);
    expect(models[13]).toEqual({ id: 64900, name: 'vendor', points: { Code: 0x01020304, Flags: 4887.9 } });
  });

  it('accepts names with hyphens, as the official models use (model 805: lithium-ion-module), and skips a bad file of the folder with its name and reason', () => {
    const folder = modelFolder({
      'model_64900.json': vendorModel(
        'lithium-ion-vendor',
        [{ name: 'vendor-code', type: 'uint32' }],
        [{ name: 'flag-block', type: 'group', points: [{ name: 'flag-word', type: 'uint16', sf: -1 }] }],
      ),
      'model_64901.json': '{"id": 64901, "group": ',
    });
    const run = sunspec('decode', '--models', folder, dump);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^sunspec: skipped model_64901\.json: not valid JSON \(.+\)\n$/);
    expect(JSON.parse(run.stdout)[13]).toEqual({
      id: 64900,
      name: 'lithium-ion-vendor',
      points: { 'vendor-code': 0x01020304, 'flag-block': { 'flag-word': 4887.9 } },
    });
  });

  it.each([
    [
      ['decode', join(scratch, 'missing.hex')],
      /^sunspec: the dump file .*missing\.hex cannot be read \(ENOENT\)\n$/,
    ],
    [['decode', file('bad.hex', '5375 6e5g')], /^sunspec: line 1: 'g' is not a hex digit\n$/],
    [['decode', file('nomarker.hex', '0000 0000')], /^sunspec: .*nomarker\.hex: no SunS marker/],
    [
      ['decode', '--models', join(scratch, 'none'), dump],
      /^sunspec: the model folder .*none cannot be read \(ENOENT\)\n$/,
    ],
    [['frobnicate'], /^sunspec: unknown command 'frobnicate' \(expected decode or encode\)\n$/],
  ])('exits 2 with one line on stderr for bad input %#', (args, message) => {
    const run = sunspec(...args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('names the file, the point and the problem of a malformed model it skips', () => {
    const folder = modelFolder({
      'model_64901.json': { ...vendorModel('x', [{ name: 'W', type: 'int16', sf: 'W_SF' }]), id: 64901 },
    });
    const run = sunspec('decode', '--models', folder, dump);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      "sunspec: skipped model_64901.json: group x, point W: sf 'W_SF' names no sunssf point in its group or an enclosing one\n",
    );
    expect(JSON.parse(run.stdout)).toHaveLength(14);
  });
});

describe('sunspec encode', () => {
  it('prints one function-16 request per changed run, with the CRC from the codec', () => {
    const changes = file('changes.json', JSON.stringify([{ id: 121, points: { WMax: 9000, VRef: 230 } }]));
    const run = sunspec('encode', '--unit', '3', dump, changes);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.slice(0, 18)).toBe('03109cd80001022328');
    const frame = Uint8Array.from(Buffer.from(lines[0] ?? '', 'hex'));
    expect(() => codec.verifyFrame(frame)).not.toThrow();
  });

  it('takes back what decode printed and writes nothing when nothing changed', () => {
    const same = file('same.json', sunspec('decode', dump).stdout);
    expect(sunspec('encode', dump, same)).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it.each([
    [[{ id: 121, points: { WMax: 70000 } }], 'sunspec: WMax (WMax) must be between 0 and 65534 W\n'],
    [[{ id: 121, points: { Nope: 1 } }], 'sunspec: model 121 has no point Nope\n'],
    [[{ id: 999, points: {} }], 'sunspec: the device has no model 999\n'],
    [[{ id: 103, points: { W: 10 } }], 'sunspec: Watts (W) is read-only\n'],
  ])('exits 2 for a bad change %#', (changes, message) => {
    expect(sunspec('encode', dump, file('bad.json', JSON.stringify(changes)))).toEqual({
      status: 2,
      stdout: '',
      stderr: message,
    });
  });
});
