import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import { composeModel } from '../../src/sunspec/compose-model.ts';
import { decodeDevice } from '../../src/sunspec/decode-device.ts';
import { DemoSunSpecDevice } from '../../src/sunspec/demo-device.ts';
import { parseEdit } from '../../src/sunspec/edit-point.ts';
import { changedRanges, encodeModel } from '../../src/sunspec/encode-model.ts';
import { frameHex, writeRequests } from '../../src/sunspec/write-requests.ts';
import { catalogue, chain, model } from './fixtures.ts';

const codec = await loadCodec();
const device = decodeDevice(
  chain(composeModel(model(121), { WMax: 10000, WMax_SF: 0, PFMin_SF: -2, VArAct: 1 })),
  catalogue,
);
const settings = device.models[0];
if (!settings) throw new Error('no model');
const pointOf = (path: string) => {
  const found = settings.points.find((p) => p.path === path);
  if (!found) throw new Error(path);
  return found;
};

describe('write requests', () => {
  it('encodes only the changed register as function 16 with address, count and the codec CRC', () => {
    const ranges = changedRanges(settings, new Map([['WMax', 9000]]));
    expect(ranges).toEqual([{ address: 40004, registers: Uint16Array.of(9000) }]);
    const [request] = writeRequests(ranges, 1, codec.crc16);
    expect(frameHex(request?.frame ?? new Uint8Array()).slice(0, 26)).toBe('01 10 9c 44 00 01 02 23 28');
    // The CRC closes the frame the way a Modbus device checks it.
    expect(() => codec.verifyFrame(request?.frame ?? new Uint8Array())).not.toThrow();
    expect(request).toMatchObject({ unit: 1, address: 40004, count: 1 });
  });

  it('joins neighbouring changes into one request and leaves untouched registers out', () => {
    const ranges = changedRanges(
      settings,
      new Map<string, number>([
        ['WMax', 9000],
        ['VRef', 231],
        ['ConnPh', 2],
      ]),
    );
    expect(ranges.map((r) => [r.address, r.registers.length])).toEqual([
      [40004, 2],
      [40023, 1],
    ]);
  });

  it('writes nothing when a value is set to what the device holds', () => {
    expect(changedRanges(settings, new Map([['WMax', 10000]]))).toEqual([]);
  });

  it('writes a whole sync group when one of its points changes', () => {
    const demo = new DemoSunSpecDevice(catalogue);
    const controls = decodeDevice(demo.read(), catalogue).models.find((m) => m.id === 704);
    if (!controls) throw new Error('no 704');
    const [range] = changedRanges(controls, new Map([['PFWInj.PF', 0.95]]));
    expect(range?.registers).toEqual(Uint16Array.of(950, 0));
  });

  it('a request sent to the demo device changes what it reports', () => {
    const demo = new DemoSunSpecDevice(catalogue);
    const before = decodeDevice(demo.read(), catalogue).models.find((m) => m.id === 802);
    if (!before) throw new Error('no 802');
    for (const r of writeRequests(changedRanges(before, new Map([['SoCRsvMin', 20]])), 1, codec.crc16)) {
      demo.write(r.frame, codec.crc16);
    }
    const after = decodeDevice(demo.read(), catalogue).models.find((m) => m.id === 802);
    expect(after?.points.find((p) => p.path === 'SoCRsvMin')?.value).toBe(20);
  });

  it('the demo device refuses a request with a bad CRC and writes nothing', () => {
    const demo = new DemoSunSpecDevice(catalogue);
    const frame = Uint8Array.of(1, 0x10, 0x9c, 0x44, 0, 1, 2, 0x23, 0x28, 0, 0);
    expect(() => demo.write(frame, codec.crc16)).toThrow('the request fails its CRC');
  });

  it('writes two strings that do not touch as two requests', () => {
    const block = composeModel(model(1), {});
    const common = decodeDevice(chain(block), catalogue).models[0];
    if (!common) throw new Error('no model 1');
    const ranges = changedRanges(
      common,
      new Map([
        ['Mn', 'A'],
        ['SN', 'B'],
      ]),
    );
    expect(ranges.map((r) => r.registers.length)).toEqual([16, 16]);
  });
});

describe('editing a setting', () => {
  it.each([
    ['WMax', '70000', 'WMax (WMax) must be between 0 and 65534 W'],
    ['WMax', 'lots', 'WMax (WMax) must be a number'],
    ['WMax', '', 'WMax (WMax) needs a value'],
    ['PFMinQ1', '0.805', 'PFMinQ1 (PFMinQ1) takes steps of 0.01'],
    ['VArAct', '3', 'VArAct (VArAct) must be one of SWITCH (1), MAINTAIN (2)'],
    ['WMax_SF', '1', 'WMax scale factor (WMax_SF) is read-only'],
  ])('refuses %s = %j: %s', (path, text, message) => {
    expect(() => parseEdit(pointOf(path), text)).toThrow(message);
  });

  it('takes a value in range after scaling, and an enum by symbol name', () => {
    expect(parseEdit(pointOf('PFMinQ1'), '-0.85')).toBe(-0.85);
    expect(parseEdit(pointOf('VArAct'), 'MAINTAIN')).toBe(2);
    expect(parseEdit(pointOf('WMax'), ' 65534 ')).toBe(65534);
  });

  it('encodes every point back into the registers it came from', () => {
    expect(encodeModel(settings)).toEqual(settings.registers);
  });
});
