import type { RawItem } from '../device-config/config-schema.ts';
import { fieldRange } from '../device-config/field-range.ts';

/** A number in [0, 1) that depends only on its inputs (FNV-1a, then an integer finaliser). */
export function noise(name: string, tick: number): number {
  let h = 0x811c9dc5;
  for (const c of `${name}:${tick}`) h = Math.imul(h ^ (c.codePointAt(0) ?? 0), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h ^= h >>> 13;
  return (h >>> 0) / 2 ** 32;
}

function clamp(raw: number, item: RawItem): number {
  const { min, max } = fieldRange(item.buffer);
  return Math.min(max, Math.max(min, Math.round(raw)));
}

/** Units of counters that stay put while a device is watched (days in service). */
const STILL_UNITS = new Set(['d']);

/**
 * How much of the ±8 % swing a unit gets: a grid's frequency and a battery's voltage stay close to
 * their nominal values.
 */
const SWING_BY_UNIT: Readonly<Record<string, number>> = { Hz: 0.02, V: 0.25 };

/** Whether an item is a measurement that moves (it has a unit), as opposed to a status or version byte. */
function isMoving(item: RawItem): boolean {
  return item.readOnly === true && item.unit !== undefined && !STILL_UNITS.has(item.unit);
}

/**
 * The raw value of a live item at time `ms`: energy counters (kWh) grow by 0.5 kWh an hour; other
 * measurements swing ±8 % around their default over a minute or two, with ±1 % jitter each second
 * (frequencies a fiftieth of that, voltages a quarter).
 * Pure: the same item and time always give the same value.
 * @example liveRaw(pvPowerItem, Date.now(), startedAt) // 3120 ± 8 %
 */
export function liveRaw(item: RawItem, ms: number, startMs: number): number {
  if (!isMoving(item)) return item.value;
  if (item.unit === 'kWh')
    return clamp(item.value + ((ms - startMs) / 3_600_000) * (0.5 / item.multiplier), item);
  const period = 60_000 + noise(item.name, -1) * 60_000;
  const phase = noise(item.name, -2) * 2 * Math.PI;
  const scale = SWING_BY_UNIT[item.unit ?? ''] ?? 1;
  const swing = 0.08 * scale * Math.sin((2 * Math.PI * ms) / period + phase);
  const jitter = (noise(item.name, Math.floor(ms / 1000)) - 0.5) * 0.02 * scale;
  return clamp(item.value * (1 + swing + jitter), item);
}

/**
 * A plausible received signal strength in dBm: around −62, drifting ±6 and jittering ±3 each second,
 * always between −95 and −35.
 * @example rssiAt('HX5K-24-000123', Date.now()) // -61
 */
export function rssiAt(serialNumber: string, ms: number): number {
  const drift = 6 * Math.sin(ms / 7000);
  const jitter = (noise(serialNumber, Math.floor(ms / 1000)) - 0.5) * 6;
  return Math.min(-35, Math.max(-95, Math.round(-62 + drift + jitter)));
}
