import { z } from 'zod';
import { serialNumberPattern } from './catalogue.ts';

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

/** How the app's write reached the device. */
export const configTransportSchema = z.enum(['web-bluetooth', 'simulated']);

/**
 * How a recorded write reached the device: the app's transports, or `service-comms` for a
 * template the service applied to a device online (the service records those itself).
 */
export const historyTransportSchema = z.enum(['web-bluetooth', 'simulated', 'service-comms']);

/** The name of the settings template a write applied, when it applied one. */
export const historyTemplateSchema = z.string().trim().min(1).max(80);

/** Most bytes of JSON the changes of one record may take (a whole form's worth, not a page's). */
export const MAX_CHANGES_BYTES = 16 * 1024;

/**
 * How far ahead of the service's clock a record's `writtenAt` may be (a device's or a phone's clock
 * runs fast), and how far back (a record that waited in the browser's offline queue).
 */
export const WRITTEN_AT_BOUNDS = { aheadMs: 5 * 60_000, backMs: 366 * 86_400_000 } as const;

/** Largest UTC offset of any time zone (Kiribati +14:00; the most negative is -12:00). */
const MAX_OFFSET_MINUTES = 14 * 60;

/** Minutes of a `writtenAt`'s offset (`Z` is 0). */
const offsetMinutes = (value: string) => {
  const offset = /([+-])(\d{2}):?(\d{2})$/.exec(value);
  return offset ? (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) : 0;
};

const recordShape = z.object({
  id: z.uuid(),
  /** When the app says the write was verified, with an offset; bounded by the time received. */
  writtenAt: z.iso
    .datetime({ offset: true })
    .refine(
      (value) => Math.abs(offsetMinutes(value)) <= MAX_OFFSET_MINUTES,
      'the offset must lie within ±14:00',
    ),
  transport: configTransportSchema,
  changes: z.array(configChangeSchema).min(1).max(200),
  /** The settings template the write applied, if any. */
  template: historyTemplateSchema.optional(),
});

/**
 * `POST /fleet/devices/{serial}/config-history`: what a verified write changed. `id` is made by the
 * app, so that a record sent again from the offline queue is stored once.
 */
export const configHistoryRecordSchema = recordShape.refine(
  (record) => new TextEncoder().encode(JSON.stringify(record.changes)).length <= MAX_CHANGES_BYTES,
  { path: ['changes'], message: `the changes of one record take at most ${MAX_CHANGES_BYTES / 1024} KiB` },
);
export type ConfigHistoryRecord = z.infer<typeof configHistoryRecordSchema>;

/** One entry of `GET /fleet/devices/{serial}/config-history`: a record, who sent it and when it arrived. */
export const configHistoryEntrySchema = recordShape.extend({
  transport: historyTransportSchema,
  template: z.string().nullable().optional(),
  serial: z.string(),
  userId: z.number().int(),
  userEmail: z.string(),
  /** When the service received the record: the history's order. */
  receivedAt: z.string(),
});
export type ConfigHistoryEntry = z.infer<typeof configHistoryEntrySchema>;

/** Most entries one page holds (`?pageSize=`), and the default. */
export const HISTORY_PAGE_SIZE = { max: 50, default: 20 } as const;

/** Most bytes of entries one page carries: a page ends early rather than grow past it. */
export const MAX_HISTORY_PAGE_BYTES = 256 * 1024;

/** Where the next page starts: opaque to callers, who pass on the `nextCursor` they were given. */
export const historyCursorSchema = z
  .string()
  .regex(/^\d{1,16}$/, 'a nextCursor from an earlier page')
  .refine((cursor) => Number(cursor) <= Number.MAX_SAFE_INTEGER, 'a nextCursor from an earlier page');

/** Query of `GET /fleet/devices/{serial}/config-history`. */
export const configHistoryQuerySchema = z.object({
  cursor: historyCursorSchema.optional(),
  pageSize: z.coerce.number().int().min(1).max(HISTORY_PAGE_SIZE.max).default(HISTORY_PAGE_SIZE.default),
});

/**
 * One page of a device's history, newest received first; `nextCursor` reads the next (older)
 * page, null on the last.
 */
export const configHistoryPageSchema = z.object({
  items: z.array(configHistoryEntrySchema),
  nextCursor: z.string().nullable(),
});
export type ConfigHistoryPage = z.infer<typeof configHistoryPageSchema>;
