import type { MonitoringRole } from '../../contracts/monitoring-terms.ts';
import type { Codec } from '../codec/types.ts';
import type { DeviceConfig } from './config-schema.ts';
import { decodeConfiguration } from './decode-values.ts';
import type { StatusItem, Threshold } from './monitoring-schema.ts';

/** One telemetry metric of a product: a number with a unit, stored with every reading. */
export interface TelemetryMetric {
  name: string;
  unit: string;
  /** An energy counter (kWh): rollups keep its increase, robust to a reset. */
  counter: boolean;
}

/** What a product's `Read live values` answer holds for monitoring, read from its catalogue entry. */
export interface TelemetrySpec {
  /** The item holding the reading's time, seconds since 1970 UTC. */
  timeItem: string;
  metrics: readonly TelemetryMetric[];
  status: readonly StatusItem[];
  thresholds: readonly Threshold[];
  roles: Readonly<Partial<Record<MonitoringRole, string>>>;
}

/** A reading as the codec and the catalogue read it from a frame. */
export interface TelemetryValues {
  /** The device's time of the reading, seconds since 1970 UTC. */
  deviceTime: number;
  /** Telemetry metrics and status items by name (metrics in display units). */
  values: Record<string, number>;
}

const specs = new WeakMap<DeviceConfig, TelemetrySpec | null>();

/**
 * The telemetry of a product: its read-only rawData items that have a unit, plus the otherData
 * items its `monitoring.derived` names; undefined for a product without a `monitoring` part.
 * Computed once per loaded configuration (treated as immutable).
 * @example telemetrySpec(hybrid5k).metrics.find((m) => m.name === 'energyTotal') // { unit: 'kWh', counter: true }
 */
export function telemetrySpec(config: DeviceConfig): TelemetrySpec | undefined {
  const known = specs.get(config);
  if (known !== undefined) return known ?? undefined;
  const monitoring = config.monitoring;
  if (!monitoring) {
    specs.set(config, null);
    return undefined;
  }
  const counters = new Set(monitoring.counters ?? []);
  const derived = new Set(monitoring.derived ?? []);
  const metrics: TelemetryMetric[] = [
    ...config.rawData.filter((item) => item.readOnly && item.unit !== undefined),
    ...config.otherData.filter((item) => derived.has(item.name) && item.unit !== undefined),
  ].map((item) => ({ name: item.name, unit: item.unit ?? '', counter: counters.has(item.name) }));
  const spec: TelemetrySpec = {
    timeItem: monitoring.timeItem,
    metrics,
    status: monitoring.status ?? [],
    thresholds: monitoring.thresholds ?? [],
    roles: monitoring.roles ?? {},
  };
  specs.set(config, spec);
  return spec;
}

/**
 * A `Read live values` answer → its time and telemetry: every rawData field in one batch decode
 * through the codec, scaled by its multiplier, the derived items run, then the metrics and status
 * items picked. A derived value that is not a number (`n/a`, `div/0`) is left out.
 * @example readTelemetry(codec, config, spec, frame) // { deviceTime: 1767225600, values: { pvPower: 3128, … } }
 * @throws CodecError 'frame-length' when the frame is shorter than the 254-byte view.
 */
export function readTelemetry(
  codec: Codec,
  config: DeviceConfig,
  spec: TelemetrySpec,
  frame: Uint8Array,
): TelemetryValues {
  const decoded = decodeConfiguration(codec, config, frame);
  const values: Record<string, number> = {};
  for (const name of [...spec.metrics.map((m) => m.name), ...spec.status.map((s) => s.item)]) {
    const value = decoded.values[name];
    if (typeof value === 'number' && Number.isFinite(value)) values[name] = value;
  }
  return { deviceTime: decoded.raw[spec.timeItem] ?? 0, values };
}
