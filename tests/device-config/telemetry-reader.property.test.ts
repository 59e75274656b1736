import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import type { DeviceConfig } from '../../src/device-config/config-schema.ts';
import { telemetryReader } from '../../src/device-config/telemetry-reader.ts';
import { readTelemetry, telemetrySpec } from '../../src/device-config/telemetry-spec.ts';
import { bundledConfig } from '../server/telemetry-frames.ts';

/**
 * The telemetry reader decodes only what telemetry keeps; whatever the frame holds, it answers
 * what readTelemetry answers by decoding and deriving the whole configuration.
 */
let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

const products = ['hybrid5k', 'battery10', 'e1mppt40'].map((key) => [key, bundledConfig(key)] as const);

/** A product with a derived metric that reads another derived item, which reads a raw one. */
function withChainedDerivation(config: DeviceConfig): DeviceConfig {
  const raw = config.rawData.find((item) => item.readOnly && item.multiplier !== 1) ?? config.rawData[1];
  if (!raw || !config.monitoring) throw new Error('no raw item to derive from');
  return {
    ...config,
    otherData: [
      ...config.otherData,
      {
        name: 'twice',
        processData: [{ type: 'cal', op: 'mul', left: { ref: raw.name }, right: { num: 2 } }],
      },
      {
        name: 'twicePlusOne',
        unit: 'W',
        processData: [{ type: 'cal', op: 'add', left: { ref: 'twice' }, right: { num: 1 }, round: 1 }],
      },
    ],
    monitoring: { ...config.monitoring, derived: [...(config.monitoring.derived ?? []), 'twicePlusOne'] },
  };
}

describe('the telemetry reader', () => {
  it.each([...products, ['hybrid5k, chained', withChainedDerivation(bundledConfig('hybrid5k'))] as const])(
    'answers what readTelemetry answers for any frame of %s',
    (_key, config) => {
      const spec = telemetrySpec(config);
      if (!spec) throw new Error('no telemetry');
      const read = telemetryReader(codec, config, spec);
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 255, maxLength: 255 }), (frame) => {
          expect(read(frame)).toEqual(readTelemetry(codec, config, spec, frame));
        }),
        { numRuns: 300 },
      );
    },
  );
});
