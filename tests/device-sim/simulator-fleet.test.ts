import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueSchema } from '../../contracts/catalogue.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { SimulatorFleet, UnknownDeviceError } from '../../src/device-sim/simulator-fleet.ts';
import { bundledProducts, readPublic } from '../device-config/bundled-products.ts';

let fleet: SimulatorFleet;
let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
  const lists = ['devices-list.json', 'devices-list-e1.json'].map((f) =>
    catalogueSchema.parse(readPublic(f)),
  );
  const configs = Object.fromEntries(bundledProducts().map((p) => [p.entry.productKey, p.config]));
  fleet = new SimulatorFleet({ codec, lists, configs });
});

describe('the simulator fleet', () => {
  it('finds the model of a serial number by its prefix', () => {
    expect(fleet.model('HX5K-24-000123')?.modelId).toBe('HX-5000');
    expect(fleet.model('BX10-25-004411')?.modelId).toBe('BX-10');
    expect(fleet.model('E140-25-000907')?.modelId).toBe('E1-40');
  });

  it('hands out the same device for the same serial number', () => {
    expect(fleet.device('E140-25-000907')).toBe(fleet.device('E140-25-000907'));
    expect(fleet.device('E140-25-000907').request(codec.buildFrame(1, 255))[0]).toBe(0x81);
  });

  it('names a serial number no model claims', () => {
    expect(() => fleet.device('ZZ9-25-000001')).toThrow(UnknownDeviceError);
    expect(() => fleet.device('ZZ9-25-000001')).toThrow(
      'No simulated device for serial number "ZZ9-25-000001"',
    );
  });
});
