import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deviceTelemetrySchema } from '../../contracts/service-comms.ts';
import { readJsonTelemetry } from '../../server/service-comms/telemetry-input.ts';

/** What the schema answers, in the reader's terms. */
function bySchema(message: unknown) {
  const parsed = deviceTelemetrySchema.safeParse(message);
  return parsed.success ? { seq: parsed.data.seq, frame: Uint8Array.from(parsed.data.data) } : undefined;
}

const byte = fc.oneof(
  fc.integer({ min: 0, max: 255 }),
  fc.constantFrom(-1, 256, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -0, '7', null),
);
const seq = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 0, max: 0xffffffff }),
  fc.constantFrom(-1, 2 ** 32, 2 ** 53, 0.5, Number.NaN, '1', null),
);
const message = fc.record(
  {
    type: fc.constantFrom('telemetry', 'Telemetry', 'answer'),
    seq,
    data: fc.oneof(
      fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 0, maxLength: 520 }),
      fc.array(byte, { minLength: 1, maxLength: 8 }),
      fc.constantFrom('not bytes', null, {}),
    ),
    extra: fc.anything(),
  },
  { requiredKeys: ['type'] },
);

describe('the JSON telemetry message, read without zod on the hot path', () => {
  it('answers what deviceTelemetrySchema answers', () => {
    fc.assert(
      fc.property(fc.oneof(message, fc.anything()), (value) => {
        expect(readJsonTelemetry(value)).toEqual(bySchema(value));
      }),
      { numRuns: 2000 },
    );
  });
});
