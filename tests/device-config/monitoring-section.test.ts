import { describe, expect, it } from 'vitest';
import { loadCodec } from '../../src/codec/load-node.ts';
import { buildConfigFrame, defaultRawValues } from '../../src/device-config/decode-values.ts';
import { loadDeviceConfig } from '../../src/device-config/load-config.ts';
import { readTelemetry, telemetrySpec } from '../../src/device-config/telemetry-spec.ts';
import { bundledProducts, readPublic } from './bundled-products.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests break arbitrary parts of a JSON file.
type Json = Record<string, any>;

const codec = await loadCodec();
const products = bundledProducts();

/** The messages of a bundled product file broken by `change`. */
function problemsOf(change: (json: Json) => void): string[] {
  const json = readPublic('hybrid5k-to-form.json') as Json;
  change(json);
  const result = loadDeviceConfig('hybrid5k-to-form.json', json);
  return result.ok ? [] : result.issues.map((issue) => issue.message);
}

describe('the monitoring part of a product file', () => {
  it.each(products)(
    '$modelId: telemetry is its read-only items with a unit, plus its derived items',
    ({ config }) => {
      const spec = telemetrySpec(config);
      if (!spec) throw new Error('no monitoring part');
      const raw = config.rawData.filter((item) => item.readOnly && item.unit).map((item) => item.name);
      expect(spec.metrics.map((m) => m.name)).toEqual([...raw, ...(config.monitoring?.derived ?? [])]);
      const counters = spec.metrics.filter((m) => m.counter);
      expect(counters.length).toBe(1);
      expect(counters.every((m) => m.unit === 'kWh')).toBe(true);
    },
  );

  it.each(products)(
    '$modelId: a Read live values answer reads back as its time and values',
    ({ config, entry }) => {
      const spec = telemetrySpec(config);
      if (!spec) throw new Error('no monitoring part');
      const raw = { ...defaultRawValues(config), [spec.timeItem]: 1_767_225_600 };
      const frame = buildConfigFrame(codec, config, 0x83, entry.write.bufferSize, raw);
      const reading = readTelemetry(codec, config, spec, frame);
      expect(reading.deviceTime).toBe(1_767_225_600);
      for (const metric of spec.metrics) expect(typeof reading.values[metric.name]).toBe('number');
      for (const status of spec.status) expect(reading.values[status.item]).toBe(raw[status.item]);
    },
  );

  it('names the field for each kind of mistake', () => {
    expect(problemsOf((j) => (j.monitoring.timeItem = 'pvPower'))).toEqual([
      'hybrid5k-to-form.json: monitoring.timeItem: "pvPower" must be a read-only unsigned 32-bit rawData item without a unit (seconds since 1970)',
    ]);
    expect(problemsOf((j) => (j.monitoring.counters = ['pvPower']))).toEqual([
      'hybrid5k-to-form.json: monitoring.counters[0]: "pvPower" is not a telemetry item in kWh',
      'hybrid5k-to-form.json: monitoring.roles.producedEnergy: "energyTotal" is not listed in counters',
    ]);
    expect(problemsOf((j) => (j.monitoring.roles.soc = 'pvPower'))).toEqual([
      'hybrid5k-to-form.json: monitoring.roles.soc: "pvPower" is not a telemetry item in %',
    ]);
    expect(problemsOf((j) => (j.monitoring.derived = ['gridDirection']))).toContain(
      'hybrid5k-to-form.json: monitoring.derived[0]: "gridDirection" names no otherData item with a unit',
    );
    expect(problemsOf((j) => j.monitoring.status.push({ item: 'pvPower' }))).toEqual([
      'hybrid5k-to-form.json: monitoring.status[3].item: "pvPower" names no read-only rawData item without a unit',
    ]);
    expect(
      problemsOf((j) => j.monitoring.status[0].codes.push({ value: 300, text: 'x', severity: 'info' })),
    ).toEqual(['hybrid5k-to-form.json: monitoring.status[0].codes[4].value: 300 does not fit the field']);
    expect(problemsOf((j) => (j.monitoring.thresholds[0].clearAt = 5))).toEqual([
      'hybrid5k-to-form.json: monitoring.thresholds[0].clearAt: 5 is below the limit 10',
    ]);
    expect(problemsOf((j) => (j.monitoring.thresholds[0].above = 90))).toEqual([
      'hybrid5k-to-form.json: monitoring.thresholds[0]: give exactly one of below and above',
    ]);
    expect(problemsOf((j) => (j.monitoring.thresholds[1].severity = 'fatal'))).toHaveLength(1);
  });
});
