import { multiplierDecimals } from '../codec/scale.ts';
import type { Codec, FieldTable } from '../codec/types.ts';
import type { DeviceConfig, OtherItem, RawItem } from './config-schema.ts';
import { type ConfigValue, runSteps } from './process-data.ts';
import { stepRefs } from './process-step-schema.ts';
import type { TelemetrySpec, TelemetryValues } from './telemetry-spec.ts';

/** `toFixed` takes at most 100 digits, and past 20 the fixed form no longer helps (as `scaleRaw`). */
const MAX_FIXED_DECIMALS = 20;

/** A rawData item as the reader scales it: its multiplier's decimals worked out once. */
interface ScaledItem {
  name: string;
  multiplier: number;
  decimals: number;
  /** 10^decimals when the multiplier is 10^-decimals itself (0.1, 0.01 …), else undefined. */
  divisor: number | undefined;
}

/** Past this an integer's product with the multiplier may stray by more than toFixed rounds away. */
const EXACT_QUOTIENT_LIMIT = 2 ** 50;

/**
 * raw × multiplier as `scaleRaw` gives it, with the decimals known beforehand. An integer under a
 * multiplier of 10^-d is divided by 10^d instead: `toFixed(d)` of the product is the quotient's
 * exact decimals (the product strays from it by far less than half the last one), and the division
 * is the double nearest to them, as reading that text back gives; one division, no text per value.
 */
function scale(raw: number, item: ScaledItem): number {
  if (item.multiplier === 1) return raw;
  if (item.divisor !== undefined && Number.isInteger(raw) && Math.abs(raw) < EXACT_QUOTIENT_LIMIT)
    return raw / item.divisor + 0;
  const value = raw * item.multiplier;
  return item.decimals <= MAX_FIXED_DECIMALS
    ? Number(value.toFixed(item.decimals))
    : Number(value.toPrecision(15));
}

/** Reads a `Read live values` answer's telemetry: what `readTelemetry` answers, for this product. */
export type TelemetryReader = (frame: Uint8Array) => TelemetryValues;

const readers = new WeakMap<DeviceConfig, { spec: TelemetrySpec; read: TelemetryReader }>();

/**
 * A product's telemetry reader, planned once per loaded configuration: it decodes only the rawData
 * fields telemetry needs (its metrics, status items and time, and what its derived items read),
 * with each multiplier's decimals worked out beforehand, and runs only the derived items it keeps
 * (and those they read), in file order. Every reading of every device goes through it, where
 * `readTelemetry` decodes and derives the whole configuration; it answers exactly the same
 * (`tests/device-config/telemetry-reader.property.test.ts`).
 * @example telemetryReader(codec, config, spec)(frame) // { deviceTime: 1767225600, values: { pvPower: 3128, … } }
 * @throws CodecError 'frame-length' when the frame is shorter than the 254-byte view.
 */
export function telemetryReader(codec: Codec, config: DeviceConfig, spec: TelemetrySpec): TelemetryReader {
  const known = readers.get(config);
  if (known?.spec === spec) return known.read;
  const read = planReader(codec, config, spec);
  readers.set(config, { spec, read });
  return read;
}

function planReader(codec: Codec, config: DeviceConfig, spec: TelemetrySpec): TelemetryReader {
  const outputs = [...spec.metrics.map((m) => m.name), ...spec.status.map((s) => s.item)];
  const otherByName = new Map(config.otherData.map((item) => [item.name, item]));
  // The derived items kept, and every derived item they read, however deep; and the raw ones.
  const derived = new Set<OtherItem>();
  const rawNames = new Set<string>([spec.timeItem]);
  const visit = (name: string) => {
    rawNames.add(name);
    const item = otherByName.get(name);
    if (!item || derived.has(item)) return;
    derived.add(item);
    for (const step of item.processData) for (const ref of stepRefs(step)) if (ref !== '$') visit(ref);
  };
  for (const name of outputs) visit(name);
  const rawItems: RawItem[] = config.rawData.filter((item) => rawNames.has(item.name));
  const scaled: ScaledItem[] = rawItems.map((item) => {
    const decimals = multiplierDecimals(item.multiplier);
    const exact = decimals > 0 && decimals <= 22 && Number(`1e-${decimals}`) === item.multiplier;
    return {
      name: item.name,
      multiplier: item.multiplier,
      decimals,
      divisor: exact ? 10 ** decimals : undefined,
    };
  });
  const timeIndex = rawItems.findIndex((item) => item.name === spec.timeItem);
  // In file order, as deriveValues runs them (an item sees only the ones before it).
  const steps = config.otherData.filter((item) => derived.has(item));
  const table: FieldTable = codec.prepareFields(rawItems.map((item) => item.buffer));
  const kept = outputs.filter((name, i) => outputs.indexOf(name) === i);

  return (frame) => {
    const numbers = codec.decodeFields(frame, table);
    const values: Record<string, ConfigValue> = {};
    for (let i = 0; i < scaled.length; i++) {
      const item = scaled[i] as ScaledItem;
      values[item.name] = scale(numbers[i] ?? 0, item);
    }
    for (const item of steps) values[item.name] = runSteps(item.processData, values);
    const out: Record<string, number> = {};
    for (const name of kept) {
      const value = values[name];
      if (typeof value === 'number' && Number.isFinite(value)) out[name] = value;
    }
    return { deviceTime: timeIndex < 0 ? 0 : (numbers[timeIndex] ?? 0), values: out };
  };
}
