import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueSchema } from '../../contracts/catalogue.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { readTelemetry, telemetrySpec } from '../../src/device-config/telemetry-spec.ts';
import { sampledLiveValues } from '../../src/device-sim/online/sampled-live-values.ts';
import { SimulatorFleet } from '../../src/device-sim/simulator-fleet.ts';
import { bundledProducts, readPublic } from '../device-config/bundled-products.ts';

let fleet: SimulatorFleet;
let codec: Codec;
let clock = Date.UTC(2026, 10, 29, 12, 0, 0);
const hybrid = bundledProducts().find((p) => p.entry.productKey === 'hybrid5k');
beforeAll(async () => {
  codec = await loadCodec();
  const lists = ['devices-list.json', 'devices-list-e1.json'].map((f) =>
    catalogueSchema.parse(readPublic(f)),
  );
  const configs = Object.fromEntries(bundledProducts().map((p) => [p.entry.productKey, p.config]));
  fleet = new SimulatorFleet({ codec, lists, configs, now: () => clock });
});

describe('live values sampled once in a while', () => {
  it('sends the last sample again at each reading’s own time, a valid frame, until the next sample', () => {
    const config = hybrid?.config;
    const spec = config && telemetrySpec(config);
    if (!config || !spec) throw new Error('no hybrid5k telemetry in the bundled catalogue');
    const device = sampledLiveValues(fleet.device('HX5K-24-000123'), 60_000, () => clock);
    const read = (frame: Uint8Array) => {
      codec.verifyFrame(frame, 255);
      return readTelemetry(codec, config, spec, frame);
    };
    const first = read(device.liveValuesFrame?.() as Uint8Array);
    clock += 10_000;
    const again = read(device.liveValuesFrame?.() as Uint8Array);
    expect(again.deviceTime).toBe(first.deviceTime + 10);
    expect(again.values).toEqual(first.values);
    clock += 60_000;
    const next = read(device.liveValuesFrame?.() as Uint8Array);
    expect(next.deviceTime).toBe(first.deviceTime + 70);
    expect(next.values).not.toEqual(first.values);
  });
});
