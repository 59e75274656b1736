import { z } from 'zod';
import { serialNumberPattern } from './catalogue.ts';
import { claimCodeSchema } from './claims.ts';
import { deviceSchema, modelIdSchema } from './devices.ts';
import { idSchema } from './ids.ts';
import { siteSchema } from './sites.ts';

/**
 * Putting devices on sites (commissioning): install, move, rename, replace, take off; archiving a
 * site; and the record of every such change. Serials are read as people type them: spaces around
 * them are dropped and letters upper-cased, then they must have the documented form
 * (`HX5K-24-000123`: the model's serial prefix, a two-digit year, six digits).
 */
export const installSerialSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(serialNumberPattern, 'a serial number such as HX5K-24-000123');

/** A device's name on its site: what the lists and the report show. */
export const deviceNameSchema = z.string().trim().min(1, 'a name is needed').max(80);

/**
 * `POST /fleet/sites/{siteId}/installs`. `modelId` is a model of the bundled catalogue and the
 * serial must start with that model's serial prefix; without `name` the device takes the model's
 * display name.
 */
export const installRequestSchema = z.object({
  serial: installSerialSchema,
  modelId: modelIdSchema,
  name: deviceNameSchema.optional(),
});
export type InstallRequest = z.infer<typeof installRequestSchema>;

/** `POST /fleet/sites/{siteId}/claims`: the serial and claim code from the label, and a name. */
export const claimRequestSchema = z.object({
  serial: installSerialSchema,
  claimCode: claimCodeSchema,
  name: deviceNameSchema.optional(),
});
export type ClaimRequest = z.infer<typeof claimRequestSchema>;

/**
 * A device just claimed for a site. No secret: the device is given its service-comms secret over
 * Bluetooth at commissioning (docs/device-protocol.md, "Provisioning").
 */
export const claimedDeviceSchema = deviceSchema.extend({ claimedAt: z.string() });
export type ClaimedDevice = z.infer<typeof claimedDeviceSchema>;

/** `PUT /fleet/installs/{deviceId}`: move to another site, rename, or both. */
export const installUpdateSchema = z
  .object({ siteId: idSchema.optional(), name: deviceNameSchema.optional() })
  .refine((body) => body.siteId !== undefined || body.name !== undefined, {
    message: 'give a siteId to move the device or a name to rename it',
  });
export type InstallUpdate = z.infer<typeof installUpdateSchema>;

/**
 * `POST /fleet/installs/{deviceId}/replace`: the serial of the unit that takes the old one's
 * place, with the claim code on its label when it has one (a serial of a manufacturing list).
 */
export const replaceRequestSchema = z.object({
  serial: installSerialSchema,
  claimCode: claimCodeSchema.optional(),
});
export type ReplaceRequest = z.infer<typeof replaceRequestSchema>;

/**
 * A device just put on a site (installed, or a replacement) with its service-comms secret: shown
 * this once, since only its hash is kept. The device gives it in its hello on the device socket.
 */
export const installedDeviceSchema = deviceSchema.extend({ secret: z.string() });
export type InstalledDevice = z.infer<typeof installedDeviceSchema>;

/** What a change of a device or site was. */
export const auditActionSchema = z.enum([
  'installed',
  'moved',
  'renamed',
  'replaced',
  'removed',
  'site_archived',
  'site_restored',
]);
export type AuditAction = z.infer<typeof auditActionSchema>;

/**
 * One recorded change: who made it, when, and what it was. `siteName` and `fromSiteName` (a
 * move's old site) are null when the reader cannot see that site. `userEmail` is `Company staff`
 * (user id 0) when staff made the change and the reader is not staff.
 */
export const auditRecordSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  userId: z.number().int(),
  userEmail: z.string(),
  action: auditActionSchema,
  siteId: z.number().int(),
  siteName: z.string().nullable(),
  fromSiteId: z.number().int().nullable(),
  fromSiteName: z.string().nullable(),
  serial: z.string().nullable(),
  modelId: z.string().nullable(),
  /** Names before and after a rename, or the serial a replacement took over from (or gave way to). */
  oldName: z.string().nullable(),
  newName: z.string().nullable(),
  otherSerial: z.string().nullable(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

/** `GET /fleet/sites/{siteId}/audit` and `GET /fleet/devices/{serial}/audit`: newest first. */
export const auditListSchema = z.object({ items: z.array(auditRecordSchema) });
export type AuditList = z.infer<typeof auditListSchema>;

/** Query of the audit lists: how many records (newest first). */
export const auditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** `DELETE /sites/{id}` on a site with devices: how many are still there. */
export const SITE_HAS_DEVICES = 'site_has_devices';

/** An archived site, as staff list them. */
export const archivedSiteSchema = siteSchema.extend({
  archivedAt: z.string(),
  archivedBy: z.string(),
});
export type ArchivedSite = z.infer<typeof archivedSiteSchema>;

/** `GET /fleet/archived-sites`: newest archived first. */
export const archivedSiteListSchema = z.object({ items: z.array(archivedSiteSchema) });
