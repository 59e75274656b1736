import { z } from 'zod';
import { ALARM_SEVERITIES, MONITORING_ROLES } from '../../contracts/monitoring-terms.ts';

/** An item name, as in rawData and otherData. */
const itemName = z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must be an identifier (letters, digits, _)');

export const alarmSeveritySchema = z.enum(ALARM_SEVERITIES);

/** Text of an alarm as people read it in the app and in mail. */
const alarmText = z.string().trim().min(1).max(120);

/** A status value that raises an alarm while the item holds it. */
export const statusCodeSchema = z.strictObject({
  value: z.number().int(),
  text: alarmText,
  severity: alarmSeveritySchema,
});
export type StatusCode = z.infer<typeof statusCodeSchema>;

/** A bit of a status item that raises an alarm while it is set (0 = least significant). */
export const statusBitSchema = z.strictObject({
  bit: z.number().int().min(0).max(31),
  text: alarmText,
  severity: alarmSeveritySchema,
});
export type StatusBit = z.infer<typeof statusBitSchema>;

/**
 * A status or fault item (a read-only rawData item without a unit): stored with every reading, and
 * the codes or bits that raise alarms.
 */
export const statusItemSchema = z.strictObject({
  item: itemName,
  codes: z.array(statusCodeSchema).optional(),
  bits: z.array(statusBitSchema).optional(),
});
export type StatusItem = z.infer<typeof statusItemSchema>;

/**
 * A limit on a telemetry item: an alarm while the value is `below` (or `above`) the limit. It clears
 * once the value is back at `clearAt` (default: the limit itself), so a value wavering around the
 * limit does not raise and clear again and again.
 */
export const thresholdSchema = z
  .strictObject({
    item: itemName,
    below: z.number().optional(),
    above: z.number().optional(),
    clearAt: z.number().optional(),
    text: alarmText,
    severity: alarmSeveritySchema,
  })
  .refine((t) => (t.below === undefined) !== (t.above === undefined), {
    message: 'give exactly one of below and above',
  });
export type Threshold = z.infer<typeof thresholdSchema>;

/**
 * The `monitoring` part of a `{product}-to-form.json`: how the product's `Read live values` answer
 * becomes telemetry. Telemetry metrics are the read-only rawData items that have a unit (scaled by
 * their multiplier), plus the `derived` otherData items; docs/device-config-format.md.
 */
export const monitoringSchema = z.strictObject({
  /** A read-only u32 rawData item without a unit: when the reading was taken, seconds since 1970 UTC. */
  timeItem: itemName,
  /** otherData items with a unit whose numbers are stored with the raw telemetry items. */
  derived: z.array(itemName).optional(),
  /** Telemetry items that are energy counters: kWh that only grow until `Reset energy counters`. */
  counters: z.array(itemName).optional(),
  /** Which telemetry item plays each role, where the product has one. */
  roles: z.partialRecord(z.enum(MONITORING_ROLES), itemName).optional(),
  status: z.array(statusItemSchema).optional(),
  thresholds: z.array(thresholdSchema).optional(),
});
export type MonitoringSection = z.infer<typeof monitoringSchema>;
