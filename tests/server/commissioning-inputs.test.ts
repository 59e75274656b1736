import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialNumberPattern } from '../../contracts/catalogue.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

/**
 * Property tests of the commissioning inputs against an oracle written from the documented
 * rules: what a serial must look like for its model, and what a template may hold for the HX-5000.
 * Counterexamples found once are kept as fixed cases (`examples`).
 */
let t: TestServer;
let installer = '';

beforeAll(async () => {
  t = await startTestServer();
  installer = (await t.login('installerA')).access_token;
});
afterAll(() => t.close());

const PREFIXES: Record<string, string> = { 'HX-5000': 'HX5K', 'BX-10': 'BX10', 'E1-40': 'E140' };

/** Serials of every kind: well formed for some model or none, in any case, padded, or junk. */
const serialText = fc.oneof(
  fc
    .record({
      prefix: fc.constantFrom('HX5K', 'BX10', 'E140', 'AB12', 'hx5k', 'H', 'TOOLONGPREFIX'),
      year: fc.integer({ min: 0, max: 120 }),
      number: fc.integer({ min: 0, max: 1_200_000 }),
      pad: fc.constantFrom('', ' ', '  '),
    })
    .map(
      ({ prefix, year, number, pad }) =>
        `${pad}${prefix}-${String(year).padStart(2, '0')}-${String(number).padStart(6, '0')}${pad}`,
    ),
  fc.string({ maxLength: 20 }),
);
const modelText = fc.constantFrom('HX-5000', 'BX-10', 'E1-40', 'HX-9000', 'hx 5000', '');

describe('POST /fleet/sites/{siteId}/installs', () => {
  const installed = new Set<string>();
  it("installs exactly the serials of the documented form with the model's prefix, once", async () => {
    await fc.assert(
      fc.asyncProperty(serialText, modelText, async (serial, modelId) => {
        const normal = serial.trim().toUpperCase();
        const prefix = PREFIXES[modelId];
        const expected = !serialNumberPattern.test(normal)
          ? { status: 400, field: 'serial' }
          : !/^[A-Za-z0-9-]{1,32}$/.test(modelId) || !prefix
            ? { status: 400, field: 'modelId' }
            : !normal.startsWith(`${prefix}-`)
              ? { status: 400, field: 'serial' }
              : installed.has(normal)
                ? { status: 409 }
                : { status: 201 };
        const answer = await t.call('POST', `/config/fleet/sites/${IDS.siteOfA}/installs`, {
          token: installer,
          body: { serial, modelId },
        });
        expect(answer).toMatchObject(
          expected.field ? { status: expected.status, body: { field: expected.field } } : expected,
        );
        if (answer.status === 201) installed.add(normal);
      }),
      {
        numRuns: 80,
        examples: [
          ['hx5k-26-000001 ', 'HX-5000'],
          ['HX5K-26-000001', 'HX-5000'],
          ['BX10-26-000001', 'HX-5000'],
        ],
      },
    );
  });
});

/** The HX-5000's form limits of a few settings (public/hybrid5k-to-form.json). */
const LIMITS: Record<string, [number, number]> = {
  maxChargeCurrent: [0, 100],
  batteryFloatVoltage: [50, 58],
  workMode: [0, 3],
  gridFreqHigh: [50, 55],
};

const settingsArbitrary = fc.dictionary(
  fc.constantFrom(...Object.keys(LIMITS), 'turboBoost', 'password', 'deviceClock'),
  fc.oneof(
    fc.double({ min: -20, max: 200, noNaN: true, noDefaultInfinity: true }),
    fc.integer({ min: -5, max: 120 }),
    fc.constantFrom('12', 'abc'),
  ),
  { minKeys: 1, maxKeys: 4 },
);

describe('POST /fleet/config-templates', () => {
  it('stores exactly the templates whose every setting the product has, within its limits', async () => {
    await fc.assert(
      fc.asyncProperty(settingsArbitrary, async (settings) => {
        const valid = Object.entries(settings).every(([name, value]) => {
          const limits = LIMITS[name];
          return (
            limits !== undefined && typeof value === 'number' && value >= limits[0] && value <= limits[1]
          );
        });
        const answer = await t.call('POST', '/config/fleet/config-templates', {
          token: installer,
          body: { name: `Property ${randomUUID()}`, modelId: 'HX-5000', settings },
        });
        if (valid) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        else expect(answer).toMatchObject({ status: 400, body: { code: 'template_invalid' } });
      }),
      {
        numRuns: 80,
        examples: [[{ maxChargeCurrent: 100 }], [{ maxChargeCurrent: 100.0001 }], [{ password: 'abc' }]],
      },
    );
  });
});
