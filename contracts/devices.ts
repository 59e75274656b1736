import { z } from 'zod';
import { serialNumberPattern } from './catalogue.ts';
import { DEVICE_SORT_KEYS } from './list-sort-keys.ts';
import { pageOf, sortedListQuerySchema } from './page.ts';

/** A device installed at a site: `modelId` is the catalogue's model id (e.g. `HX-5000`). */
export const deviceSchema = z.object({
  id: z.number().int(),
  modelId: z.string(),
  serial: z.string(),
  name: z.string(),
  siteId: z.number().int(),
  siteName: z.string(),
  installedAt: z.string(),
  /** When it was claimed for its site with its label's claim code; absent when put on by serial alone. */
  claimedAt: z.string().optional(),
  /**
   * The firmware version the device said in its last hello on the device socket (`1.2.0`, or
   * `1.2.0+7` with a build number); null until it has connected and said it. Never typed by anyone.
   */
  firmwareVersion: z.string().nullable(),
});
export type Device = z.infer<typeof deviceSchema>;

/** Device lists and `GET /fleet/sites/installs/{siteId}`. */
export const devicePageSchema = pageOf(deviceSchema);

/** The query of every device list: search, page size, sort. */
export const deviceListQuerySchema = sortedListQuerySchema(DEVICE_SORT_KEYS);

/** The `{id}` of `GET /install/device/{id}`: a catalogue model id such as `HX-5000`. */
export const modelIdSchema = z.string().regex(/^[A-Za-z0-9-]{1,32}$/, 'a model id such as HX-5000');

/** `GET /install/device/{id}?serial=`: the id is the model id; `serial` picks one device. */
export const installDeviceQuerySchema = z.object({
  serial: z.string().trim().regex(serialNumberPattern, 'serial looks like HX5K-24-000123').optional(),
});
