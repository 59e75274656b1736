import { MONITORING_ROLES, ROLE_UNITS } from '../../contracts/monitoring-terms.ts';
import type { DeviceConfig, RawItem } from './config-schema.ts';
import { fieldRange } from './field-range.ts';

/** Problems found, each at its JSON path (check-config.ts's `ConfigProblem`). */
type Out = { path: (string | number)[]; problem: string }[];
const at = (...path: (string | number)[]) => ['monitoring', ...path];

function checkTimeItem(config: DeviceConfig, raw: Map<string, RawItem>, out: Out): void {
  const name = config.monitoring?.timeItem ?? '';
  const item = raw.get(name);
  if (!item) out.push({ path: at('timeItem'), problem: `"${name}" names no rawData item` });
  else if (!item.readOnly || item.unit !== undefined || item.buffer.length !== 32 || item.buffer.signed)
    out.push({
      path: at('timeItem'),
      problem: `"${name}" must be a read-only unsigned 32-bit rawData item without a unit (seconds since 1970)`,
    });
}

/** The metric names (read-only raw items with a unit, and derived items with a unit) and their units. */
function metricUnits(config: DeviceConfig, out: Out): Map<string, string> {
  const units = new Map<string, string>();
  for (const item of config.rawData)
    if (item.readOnly && item.unit !== undefined) units.set(item.name, item.unit);
  const other = new Map(config.otherData.map((item) => [item.name, item]));
  config.monitoring?.derived?.forEach((name, i) => {
    const item = other.get(name);
    if (item?.unit === undefined)
      out.push({ path: at('derived', i), problem: `"${name}" names no otherData item with a unit` });
    else units.set(name, item.unit);
  });
  return units;
}

function checkCountersAndRoles(config: DeviceConfig, units: Map<string, string>, out: Out): void {
  const counters = new Set(config.monitoring?.counters ?? []);
  config.monitoring?.counters?.forEach((name, i) => {
    if (units.get(name) !== 'kWh')
      out.push({ path: at('counters', i), problem: `"${name}" is not a telemetry item in kWh` });
  });
  const roles = config.monitoring?.roles ?? {};
  for (const role of MONITORING_ROLES) {
    const name = roles[role];
    if (name === undefined) continue;
    if (units.get(name) !== ROLE_UNITS[role])
      out.push({
        path: at('roles', role),
        problem: `"${name}" is not a telemetry item in ${ROLE_UNITS[role]}`,
      });
    else if (role === 'producedEnergy' && !counters.has(name))
      out.push({ path: at('roles', role), problem: `"${name}" is not listed in counters` });
  }
}

function checkStatus(config: DeviceConfig, raw: Map<string, RawItem>, out: Out): void {
  const seen = new Set<string>();
  config.monitoring?.status?.forEach((status, i) => {
    const item = raw.get(status.item);
    if (seen.has(status.item))
      out.push({ path: at('status', i, 'item'), problem: `"${status.item}" is listed twice` });
    seen.add(status.item);
    if (!item?.readOnly || item.unit !== undefined) {
      out.push({
        path: at('status', i, 'item'),
        problem: `"${status.item}" names no read-only rawData item without a unit`,
      });
      return;
    }
    const { min, max } = fieldRange(item.buffer);
    const values = new Set<number>();
    status.codes?.forEach((code, c) => {
      if (code.value < min || code.value > max)
        out.push({
          path: at('status', i, 'codes', c, 'value'),
          problem: `${code.value} does not fit the field`,
        });
      if (values.has(code.value))
        out.push({ path: at('status', i, 'codes', c, 'value'), problem: `${code.value} is listed twice` });
      values.add(code.value);
    });
    const bits = new Set<number>();
    status.bits?.forEach((bit, b) => {
      if (bit.bit >= item.buffer.length)
        out.push({
          path: at('status', i, 'bits', b, 'bit'),
          problem: `bit ${bit.bit} is past the field's ${item.buffer.length} bits`,
        });
      if (bits.has(bit.bit))
        out.push({ path: at('status', i, 'bits', b, 'bit'), problem: `bit ${bit.bit} is listed twice` });
      bits.add(bit.bit);
    });
  });
}

function checkThresholds(config: DeviceConfig, units: Map<string, string>, out: Out): void {
  const seen = new Set<string>();
  config.monitoring?.thresholds?.forEach((threshold, i) => {
    if (!units.has(threshold.item))
      out.push({ path: at('thresholds', i, 'item'), problem: `"${threshold.item}" is not a telemetry item` });
    const side = threshold.below !== undefined ? 'below' : 'above';
    const key = `${threshold.item}:${side}`;
    if (seen.has(key))
      out.push({ path: at('thresholds', i), problem: `a second "${side}" limit on "${threshold.item}"` });
    seen.add(key);
    const { below, above, clearAt } = threshold;
    if (clearAt !== undefined && below !== undefined && clearAt < below)
      out.push({ path: at('thresholds', i, 'clearAt'), problem: `${clearAt} is below the limit ${below}` });
    if (clearAt !== undefined && above !== undefined && clearAt > above)
      out.push({ path: at('thresholds', i, 'clearAt'), problem: `${clearAt} is above the limit ${above}` });
  });
}

/**
 * Problems of a configuration's `monitoring` part: every name it gives is an item of the right
 * kind (the time a read-only u32 without a unit, counters and roles telemetry items of the right
 * unit, status items read-only without a unit), codes fit their fields, limits clear on their own
 * side.
 */
export function checkMonitoring(config: DeviceConfig, out: Out): void {
  if (!config.monitoring) return;
  const raw = new Map(config.rawData.map((item) => [item.name, item]));
  checkTimeItem(config, raw, out);
  const units = metricUnits(config, out);
  checkCountersAndRoles(config, units, out);
  checkStatus(config, raw, out);
  checkThresholds(config, units, out);
}
