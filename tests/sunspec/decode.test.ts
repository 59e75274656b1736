import { describe, expect, it } from 'vitest';
import { composeModel } from '../../src/sunspec/compose-model.ts';
import { decodeDevice } from '../../src/sunspec/decode-device.ts';
import { DemoSunSpecDevice } from '../../src/sunspec/demo-device.ts';
import { DEMO_VALUES } from '../../src/sunspec/demo-values.ts';
import { deviceJson, modelJson, type PointsJson, stringifyJson } from '../../src/sunspec/device-json.ts';
import { parseDump } from '../../src/sunspec/register-dump.ts';
import { catalogue, chain, model } from './fixtures.ts';

const demo = new DemoSunSpecDevice(catalogue);
const decoded = decodeDevice(demo.read(), catalogue);
const byId = (id: number) => {
  const found = decoded.models.find((m) => m.id === id);
  if (!found) throw new Error(`no model ${id}`);
  return found;
};
const point = (id: number, path: string) => byId(id).points.find((p) => p.path === path);

describe('decoding a register dump', () => {
  it('walks the whole chain of the demo device, unknown vendor model included', () => {
    expect(decoded.marker).toBe(40000);
    expect(decoded.models.map((m) => m.id)).toEqual([
      1, 103, 120, 121, 122, 123, 160, 701, 702, 703, 704, 705, 802, 64900,
    ]);
    expect(decoded.models.every((m) => m.warning === null)).toBe(true);
  });

  it.each(DEMO_VALUES.map(([id, values]) => [id, values] as const))(
    'gives back the values model %i was built with, scale factors applied',
    (id, values) => {
      const json = modelJson(byId(id)).points;
      for (const [name, value] of Object.entries(values)) expect(json[name]).toEqual(value);
    },
  );

  it('reads a float32 as the shortest decimal of the same float (230.9, not 230.89999389648438)', () => {
    const block = composeModel(model(113), { PhVphA: 230.9, Hz: 49.98 });
    const json = modelJson(decodeDevice(chain(block), catalogue).models[0] as never).points;
    expect(json).toMatchObject({ PhVphA: 230.9, Hz: 49.98 });
  });

  it('applies scale factors: 1452 with A_SF -2 reads 14.52 A', () => {
    const a = point(103, 'A');
    expect(a?.value).toBe(14.52);
    expect(a?.sf).toBe(-2);
    expect(byId(103).registers[a?.offset ?? 0]).toBe(1452);
  });

  it('reads not-implemented sentinels as null, per type', () => {
    expect(point(103, 'TmpTrns')?.value).toBeNull(); // int16 0x8000
    expect(point(103, 'StVnd')?.value).toBeNull(); // enum16 0xFFFF
    expect(point(103, 'EvtVnd1')?.value).toBeNull(); // bitfield32 0xFFFFFFFF
    expect(point(122, 'ActVArhQ2')?.value).toBeNull(); // acc64 0
    expect(point(701, 'TotVarhInj')?.value).toBeNull(); // uint64 all ones
    expect(point(701, 'MnAlrmInfo')?.value).toBeNull(); // string starting with NUL
  });

  it.each([101, 102, 111, 112, 113])('decodes inverter model %i, float NaN as not implemented', (id) => {
    const block = composeModel(model(id), { A: 12.5, W: 2875, W_SF: 0, A_SF: -1, Hz: 50, Hz_SF: -2, St: 4 });
    const json = modelJson(decodeDevice(chain(block), catalogue).models[0] as never).points;
    expect(json).toMatchObject({ A: 12.5, W: 2875, Hz: 50, St: 4, TmpCab: null, WH: null });
    expect(block.length).toBe(id > 110 ? 62 : 52);
  });

  it('shows a value whose scale factor is not implemented unscaled, and marks it', () => {
    expect(point(122, 'Ris_SF')?.value).toBeNull();
    expect(point(122, 'Ris')).toMatchObject({ value: 1200, unscaled: true, sf: null });
  });

  it('repeats the legacy count-0 module group of model 160 to the end of the model', () => {
    const modules = modelJson(byId(160)).points.module as PointsJson[];
    expect(modules.map((m) => m.IDStr)).toEqual(['String A', 'String B']);
    expect(point(160, 'module[1].DCA')?.value).toBe(4.33);
    expect(byId(160).length).toBe(8 + 2 * 20);
  });

  it('repeats groups counted by a point, nested: 2 curves of 4 points in model 705', () => {
    const curves = modelJson(byId(705)).points.Crv as PointsJson[];
    expect(curves).toHaveLength(2);
    expect((curves[1]?.Pt as PointsJson[] | undefined)?.map((p) => p.V)).toEqual([90, 97, 103, 110]);
    expect(point(705, 'Crv[1].Pt[3].Var')?.value).toBe(-30);
  });

  it('reads sync groups like groups', () => {
    expect(modelJson(byId(704)).points.PFWInj).toEqual({ PF: 1, Ext: 0 });
    expect(point(704, 'PFWInj.PF')?.sync).toBe('PFWInj');
  });

  it('keeps an unknown model as raw registers with its id and length, and decodes what follows', () => {
    const vendor = new Uint16Array([64999, 3, 1, 2, 3]);
    const device = decodeDevice(chain(vendor, composeModel(model(121), { WMax: 5000 })), catalogue);
    expect(deviceJson(device)[0]).toEqual({
      id: 64999,
      name: null,
      points: {},
      length: 3,
      registers: '000100020003',
    });
    expect(deviceJson(device)[1]?.points.WMax).toBe(5000);
  });

  it('prints 64-bit values past 2^53 exactly', () => {
    const block = composeModel(model(122), { ActWh: 2n ** 60n + 1n });
    const json = stringifyJson(deviceJson(decodeDevice(chain(block), catalogue)));
    expect(json).toContain('"ActWh":1152921504606846977');
  });
});

describe('finding the SunS marker', () => {
  const body = chain(composeModel(model(1), { Mn: 'X' })).registers;
  const withPadding = (before: number) => {
    const registers = new Uint16Array(before + body.length);
    registers.set(body, before);
    return registers;
  };

  it.each([40000, 0, 50000])('finds it at register %i of a dump that starts at 0', (address) => {
    const device = decodeDevice({ start: 0, registers: withPadding(address) }, catalogue);
    expect(device.marker).toBe(address);
    expect(device.models[0]?.address).toBe(address + 2);
  });

  it('takes a dump that starts with the marker as read from 40000', () => {
    expect(decodeDevice({ start: null, registers: body }, catalogue).marker).toBe(40000);
  });

  it('names where it looked when there is no marker', () => {
    expect(() => decodeDevice({ start: 0, registers: new Uint16Array(10) }, catalogue)).toThrow(
      'no SunS marker (0x53756e53) at register 40000, 0 or 50000, nor at the start of the dump (register 0)',
    );
  });
});

describe('bad dumps are named errors', () => {
  it('a model length that runs past the dump', () => {
    const registers = chain(composeModel(model(1), {})).registers.slice(0, 40);
    expect(() => decodeDevice({ start: 40000, registers }, catalogue)).toThrow(
      'model 1 at register 40002 has length 66, which runs past the end of the dump at register 40039',
    );
  });

  it('a dump that ends before the end marker', () => {
    const registers = chain(composeModel(model(1), {})).registers.slice(0, -2);
    expect(() => decodeDevice({ start: 40000, registers }, catalogue)).toThrow(
      'the dump ends at register 40069, before the end marker (id 0xFFFF) of the model chain',
    );
  });

  it.each([
    ['5375 6e5', 'the dump has 7 hex digits, which is not a whole number of registers (4 digits each)'],
    ['5375\n6e5x', "line 2: 'x' is not a hex digit"],
    ['# nothing', 'the dump has no registers'],
    ['@70000 5375', "line 1: '@70000' is not a register address (0 to 65535)"],
  ])('bad hex %j', (text, message) => {
    expect(() => parseDump(text)).toThrow(message);
  });

  it('reads comments, spacing and the @address', () => {
    expect(parseDump('@0x9c40 # marker\n53756E53\nffff 0000')).toEqual({
      start: 40000,
      registers: Uint16Array.from([0x5375, 0x6e53, 0xffff, 0]),
    });
  });
});
