import { z } from 'zod';
import { serialNumberPattern } from './devices-list.ts';

/** The `{serial}` of a configuration-history path. */
export const historySerialSchema = z
  .string()
  .regex(serialNumberPattern, 'a serial number such as HX5K-24-000123');

/** One setting changed by a verified write: its value before and after, as the form shows them. */
export const configChangeSchema = z.object({
  field: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must be a form field name'),
  label: z.string().min(1).max(200),
  oldValue: z.string().max(200),
  newValue: z.string().max(200),
});
export type ConfigChange = z.infer<typeof configChangeSchema>;

/** How the write reached the device. */
export const configTransportSchema = z.enum(['web-bluetooth', 'simulated']);

/**
 * `POST /fleet/devices/{serial}/config-history`: what a verified write changed. `id` is made by the
 * app, so that a record sent again from the offline queue is stored once.
 */
export const configHistoryRecordSchema = z.object({
  id: z.uuid(),
  writtenAt: z.iso.datetime({ offset: true }),
  transport: configTransportSchema,
  changes: z.array(configChangeSchema).min(1).max(200),
});
export type ConfigHistoryRecord = z.infer<typeof configHistoryRecordSchema>;

/** One entry of `GET /fleet/devices/{serial}/config-history`, newest first. */
export const configHistoryEntrySchema = configHistoryRecordSchema.extend({
  serial: z.string(),
  userId: z.number().int(),
  userEmail: z.string(),
  receivedAt: z.string(),
});
export type ConfigHistoryEntry = z.infer<typeof configHistoryEntrySchema>;

export const configHistoryListSchema = z.object({ history: z.array(configHistoryEntrySchema) });
export type ConfigHistoryList = z.infer<typeof configHistoryListSchema>;
