import { beforeAll, describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { decodeConfiguration } from '../../src/device-config/decode-values.ts';
import { type DemoPlace, demoSiteAt } from '../../src/device-sim/day-curve.ts';
import { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';

/**
 * Simulated devices behave like the site they are installed at: the grid of its country, the sun
 * of its longitude, latitude and season, a battery whose charge and capacity agree, panels that
 * give nothing at night, counters that start at the install.
 */
const AUSTIN: DemoPlace = { latitude: 30.2672, longitude: -97.7431, country: 'US' };
const MUNICH: DemoPlace = { latitude: 48.1372, longitude: 11.5755, country: 'DE' };
const SIZE = { peakW: 5000, batteryWh: 10_000 };

let codec: Codec;
beforeAll(async () => {
  codec = await loadCodec();
});

/** The display values a product's device reports at `ms` at `place`. */
function valuesAt(modelId: string, serialNumber: string, place: DemoPlace, ms: number) {
  const product = bundledProducts().find((p) => p.modelId === modelId);
  if (!product) throw new Error(`${modelId} missing`);
  const device = new SimulatedDevice({
    codec,
    entry: product.entry,
    config: product.config,
    serialNumber,
    now: () => ms,
    place,
  });
  return decodeConfiguration(codec, product.config, device.liveValuesFrame()).values as Record<
    string,
    number
  >;
}

/** The hour (in the zone) at which production peaks on a day, in 5-minute steps. */
function peakHour(place: DemoPlace, zone: string, dayStartUtc: number): number {
  let best = { at: 0, power: -1 };
  for (let t = dayStartUtc; t < dayStartUtc + 86_400_000; t += 300_000) {
    const power = demoSiteAt('HX5K-24-000133', t, SIZE, place).production;
    if (power > best.power) best = { at: t, power };
  }
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: 'numeric', minute: 'numeric' })
    .format(best.at)
    .split(':')
    .map(Number);
  return (parts[0] ?? 0) + (parts[1] ?? 0) / 60;
}

/** Hours with any sun on the day starting at `dayStartUtc`. */
function daylightHours(place: DemoPlace, dayStartUtc: number): number {
  let steps = 0;
  for (let t = dayStartUtc; t < dayStartUtc + 86_400_000; t += 300_000)
    if (demoSiteAt('E140-24-000200', t, SIZE, place).production > 0) steps += 1;
  return steps / 12;
}

describe('a simulated device at its site', () => {
  it('sees the sun highest around noon at the site, wherever the machine running it is', () => {
    // 28 November: Austin's solar noon is about 12:40 CST, Munich's about 12:05 CET.
    expect(peakHour(AUSTIN, 'America/Chicago', Date.UTC(2026, 10, 28, 6))).toBeGreaterThan(11.9);
    expect(peakHour(AUSTIN, 'America/Chicago', Date.UTC(2026, 10, 28, 6))).toBeLessThan(13.4);
    expect(peakHour(MUNICH, 'Europe/Berlin', Date.UTC(2026, 10, 27, 23))).toBeGreaterThan(11.4);
    expect(peakHour(MUNICH, 'Europe/Berlin', Date.UTC(2026, 10, 27, 23))).toBeLessThan(12.9);
  });

  it('has long days in its summer and short ones in its winter', () => {
    const june = daylightHours(MUNICH, Date.UTC(2026, 5, 21));
    const december = daylightHours(MUNICH, Date.UTC(2026, 11, 21));
    expect(june).toBeGreaterThan(15.5);
    expect(december).toBeLessThan(8.8);
    const sydney: DemoPlace = { latitude: -33.87, longitude: 151.21, country: 'AU' };
    expect(daylightHours(sydney, Date.UTC(2026, 11, 20, 14))).toBeGreaterThan(
      daylightHours(sydney, Date.UTC(2026, 5, 20, 14)),
    );
  });

  it("runs on the grid of the site's country: 240 V split-phase and 60 Hz in the US, 230 V 50 Hz in Germany", () => {
    const noon = Date.UTC(2026, 10, 28, 18);
    const us = valuesAt('HX-5000', 'HX5K-24-000133', AUSTIN, noon);
    expect(us.gridVoltage).toBeGreaterThan(237);
    expect(us.gridVoltage).toBeLessThan(243);
    expect(us.gridFrequency).toBeCloseTo(60, 1);
    const de = valuesAt('HX-5000', 'HX5K-24-000133', MUNICH, noon);
    expect(de.gridVoltage).toBeGreaterThan(227);
    expect(de.gridVoltage).toBeLessThan(233);
    expect(de.gridFrequency).toBeCloseTo(50, 1);
  });

  it('gives neither PV voltage nor PV current at night, and both by day', () => {
    const night = Date.UTC(2026, 10, 28, 8); // 2 am in Austin
    const day = Date.UTC(2026, 10, 28, 18); // noon
    for (const [model, serial] of [
      ['HX-5000', 'HX5K-24-000133'],
      ['E1-40', 'E140-24-000200'],
    ] as const) {
      const dark = valuesAt(model, serial, AUSTIN, night);
      expect([dark.pvVoltage, dark.pvCurrent]).toEqual([0, 0]);
      const light = valuesAt(model, serial, AUSTIN, day);
      expect(light.pvVoltage).toBeGreaterThan(0);
      expect(light.pvCurrent).toBeGreaterThan(0);
    }
  });

  it('reports a battery whose remaining capacity is its charge of the full capacity, and health ≤ 100 %', () => {
    for (let hour = 0; hour < 24; hour += 3) {
      const {
        soh,
        soc = 0,
        fullCapacity = 0,
        remainingCapacity = 0,
      } = valuesAt('BX-10', 'BX10-25-004411', AUSTIN, Date.UTC(2026, 10, 28, hour));
      expect(soh).toBeLessThanOrEqual(100);
      expect(soh).toBeGreaterThanOrEqual(90);
      // To the whole percent the charge is reported in.
      expect(Math.abs(remainingCapacity - (fullCapacity * soc) / 100)).toBeLessThanOrEqual(
        fullCapacity / 200 + 0.001,
      );
    }
  });

  it('keeps its remaining capacity with its charge when the battery is left nearly empty', () => {
    const product = bundledProducts().find((p) => p.modelId === 'BX-10');
    if (!product) throw new Error('BX-10 missing');
    const device = new SimulatedDevice({
      codec,
      entry: product.entry,
      config: product.config,
      serialNumber: 'BX10-25-004411',
      now: () => Date.UTC(2026, 10, 28, 12),
      place: AUSTIN,
    });
    device.adjust = { soc: 8 };
    const values = decodeConfiguration(codec, product.config, device.liveValuesFrame()).values as Record<
      string,
      number
    >;
    expect(values.soc).toBe(8);
    expect((values.remainingCapacity ?? 0) / (values.fullCapacity ?? 1)).toBeCloseTo(0.08, 2);
  });

  it('counts its energy from its install date', () => {
    const installedAt = Date.UTC(2026, 10, 20, 15);
    const place = { ...AUSTIN, installedAt };
    expect(demoSiteAt('HX5K-24-000133', installedAt, SIZE, place).producedKwh).toBe(0);
    const week = demoSiteAt('HX5K-24-000133', installedAt + 7 * 86_400_000, SIZE, place).producedKwh;
    // Seven late-autumn days in Texas of a 4–6 kW system: tens of kWh, not thousands.
    expect(week).toBeGreaterThan(40);
    expect(week).toBeLessThan(300);
  });
});
