import type { AlarmSeverity } from '../../../contracts/monitoring-terms.ts';
import type { TelemetrySpec } from '../../../src/device-config/telemetry-spec.ts';

/** The rule of the offline alarm: a device silent for longer than `ALARM_OFFLINE_AFTER_S`. */
export const OFFLINE_RULE = 'offline';
/** A device installed longer than `ALARM_OFFLINE_AFTER_S` ago that has never been heard from. */
export const NEVER_CONNECTED_RULE = 'never-connected';
/** A site's own alarm: every device at the site is silent (offline or never connected). */
export const SITE_OFFLINE_RULE = 'site-offline';
/** The rules a device's silence raises: a reading from it clears them. */
export const DEVICE_SILENCE_RULES: readonly string[] = [OFFLINE_RULE, NEVER_CONNECTED_RULE];

/** A condition that holds for a device now, and the alarm it raises. */
export interface AlarmCondition {
  /**
   * `status:faultCode=3`, `bit:alarmFlags=4`, `threshold:batterySoc<`, `offline`,
   * `never-connected`, `site-offline`.
   */
  rule: string;
  kind: 'offline' | 'status' | 'threshold';
  severity: AlarmSeverity;
  message: string;
  value: number | null;
}

/**
 * The alarm conditions a reading's values meet, by the product's catalogue entry: a status item
 * holding one of its listed codes, a listed bit set, a value past a limit. A limit's alarm that is
 * open (`open` holds its rule) stays until the value is back at its `clearAt`, so a value
 * wavering at the limit does not raise and clear it again and again.
 * @example alarmConditions(spec, { faultCode: 3, batterySoc: 64 }, new Set()) // [{ rule: 'status:faultCode=3', … }]
 */
export function alarmConditions(
  spec: TelemetrySpec,
  values: Readonly<Record<string, number>>,
  open: ReadonlySet<string>,
): AlarmCondition[] {
  const conditions: AlarmCondition[] = [];
  for (const status of spec.status) {
    const value = values[status.item];
    if (value === undefined) continue;
    for (const code of status.codes ?? [])
      if (value === code.value)
        conditions.push({
          rule: `status:${status.item}=${code.value}`,
          kind: 'status',
          severity: code.severity,
          message: code.text,
          value,
        });
    // Two's complement for negatives, as the catalogue's `bsv` step reads bits.
    for (const bit of status.bits ?? [])
      if (((value >>> 0) & (2 ** bit.bit)) !== 0)
        conditions.push({
          rule: `bit:${status.item}=${bit.bit}`,
          kind: 'status',
          severity: bit.severity,
          message: bit.text,
          value,
        });
  }
  for (const threshold of spec.thresholds) {
    const value = values[threshold.item];
    if (value === undefined) continue;
    const below = threshold.below !== undefined;
    const rule = `threshold:${threshold.item}${below ? '<' : '>'}`;
    const limit = (below ? threshold.below : threshold.above) as number;
    const clearAt = threshold.clearAt ?? limit;
    const holds = open.has(rule)
      ? below
        ? value < clearAt
        : value > clearAt
      : below
        ? value < limit
        : value > limit;
    if (holds)
      conditions.push({
        rule,
        kind: 'threshold',
        severity: threshold.severity,
        message: threshold.text,
        value,
      });
  }
  return conditions;
}

/** `15 minutes`, `90 seconds`, `2 hours`: how long a device may be silent, in words. */
export function silenceText(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  if (seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'}`;
  return `${seconds} seconds`;
}

/** The condition of the offline alarm. */
export function offlineCondition(afterSeconds: number): AlarmCondition {
  return {
    rule: OFFLINE_RULE,
    kind: 'offline',
    severity: 'warning',
    message: `No telemetry for more than ${silenceText(afterSeconds)}`,
    value: null,
  };
}

/** The condition of the never-connected alarm. */
export function neverConnectedCondition(afterSeconds: number): AlarmCondition {
  return {
    rule: NEVER_CONNECTED_RULE,
    kind: 'offline',
    severity: 'warning',
    message: `Never connected: nothing heard in more than ${silenceText(afterSeconds)} since it was installed`,
    value: null,
  };
}

/** The condition of a site's own alarm: none of its devices is heard from. */
export function siteOfflineCondition(afterSeconds: number): AlarmCondition {
  return {
    rule: SITE_OFFLINE_RULE,
    kind: 'offline',
    severity: 'critical',
    message: `Every device at this site is offline: none heard from for more than ${silenceText(afterSeconds)}`,
    value: null,
  };
}
