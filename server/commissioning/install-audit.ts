import type { Kysely } from 'kysely';
import { isStaff } from '../../contracts/access-policy.ts';
import { isCompanyStaffEmail } from '../../contracts/company-staff.ts';
import type { AuditAction, AuditRecord } from '../../contracts/installs.ts';
import { STAFF_SENDER } from '../../contracts/service-comms.ts';
import { visibleSiteIds } from '../access/install-access.ts';
import type { Viewer } from '../access/scope.ts';
import type { Principal } from '../auth/access-tokens.ts';
import type { Database } from '../db/schema.ts';
import { emitEvent } from '../webhooks/events.ts';
import { readableInstallations } from './installations.ts';

/** What one change was; who made it and when are added when it is recorded. */
export interface AuditEntry {
  action: AuditAction;
  site: { id: number; name: string };
  fromSite?: { id: number; name: string };
  serial?: string;
  modelId?: string;
  oldName?: string;
  newName?: string;
  /** For a replacement: the other unit's serial. */
  otherSerial?: string;
  /** For a move: the device's name, for the webhook events (not recorded). */
  deviceName?: string;
}

/** Record a change, inside the transaction that makes it (so there is never one without the other). */
export async function recordAudit(db: Kysely<Database>, by: Principal, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('install_audit')
    .values({
      user_id: by.id,
      user_email: by.email,
      action: entry.action,
      site_id: entry.site.id,
      site_name: entry.site.name,
      from_site_id: entry.fromSite?.id ?? null,
      from_site_name: entry.fromSite?.name ?? null,
      serial: entry.serial ?? null,
      model_id: entry.modelId ?? null,
      old_name: entry.oldName ?? null,
      new_name: entry.newName ?? null,
      other_serial: entry.otherSerial ?? null,
    })
    .execute();
  await emitDeviceChange(db, entry);
}

/**
 * The webhook events of a recorded change, in its transaction: a device put on a site is
 * `device.installed`, one taken off is `device.removed`; a replacement is both (the old unit
 * removed, the new one installed in its place), and so is a move (removed from the site it left,
 * `movedTo`, installed at the one it joined, `movedFrom`), so each site's subscribers learn it.
 */
async function emitDeviceChange(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  const site = { siteId: entry.site.id, siteName: entry.site.name };
  const unit = (serial: string | undefined, name: string | undefined) => ({
    serial,
    modelId: entry.modelId,
    name: name ?? null,
    ...site,
  });
  if (entry.action === 'installed')
    await emitEvent(db, 'device.installed', entry.site.id, unit(entry.serial, entry.newName));
  if (entry.action === 'removed')
    await emitEvent(db, 'device.removed', entry.site.id, unit(entry.serial, entry.oldName));
  if (entry.action === 'moved' && entry.fromSite) {
    const from = { siteId: entry.fromSite.id, siteName: entry.fromSite.name };
    await emitEvent(db, 'device.removed', entry.fromSite.id, {
      ...unit(entry.serial, entry.deviceName),
      ...from,
      movedTo: site,
    });
    await emitEvent(db, 'device.installed', entry.site.id, {
      ...unit(entry.serial, entry.deviceName),
      movedFrom: from,
    });
  }
  if (entry.action === 'replaced') {
    await emitEvent(db, 'device.removed', entry.site.id, {
      ...unit(entry.otherSerial, entry.newName),
      replacedBy: entry.serial,
    });
    await emitEvent(db, 'device.installed', entry.site.id, {
      ...unit(entry.serial, entry.newName),
      replaces: entry.otherSerial,
    });
  }
}

/** Which records to read: those of a site (where it was the site or a move's old site), or of a serial. */
export type AuditScope = { siteId: number } | { serial: string };

/**
 * Recorded changes, newest first, as the reader may see them: a serial's records are those of its
 * installations at sites the reader sees (company staff: all), a site they cannot see is not
 * named (null), and a change made by company staff shows as `Company staff` to a reader who is
 * not staff, as the command log does.
 */
export async function readAudit(
  db: Kysely<Database>,
  reader: Viewer & { email: string },
  companyDomain: string,
  scope: AuditScope,
  limit: number,
): Promise<AuditRecord[]> {
  let query = db.selectFrom('install_audit').selectAll();
  if ('siteId' in scope)
    query = query.where((eb) =>
      eb.or([eb('site_id', '=', scope.siteId), eb('from_site_id', '=', scope.siteId)]),
    );
  else {
    query = query.where((eb) =>
      eb.or([eb('serial', '=', scope.serial), eb('other_serial', '=', scope.serial)]),
    );
    // A serial's records as this reader may read them: those of its installations at sites they see.
    const readable = await readableInstallations(db, reader, [scope.serial]);
    if (readable !== 'all') {
      if (readable.length === 0) return [];
      query = query.where('installation_id', 'in', readable);
    }
  }
  const rows = await query.orderBy('id', 'desc').limit(limit).execute();
  const staffReader = isStaff(reader);
  const seen = staffReader
    ? undefined
    : await visibleSiteIds(
        db,
        reader,
        rows.flatMap((row) => (row.from_site_id === null ? [row.site_id] : [row.site_id, row.from_site_id])),
      );
  const named = (id: number | null, name: string | null) =>
    id === null ? null : !seen || seen.has(id) ? name : null;
  return rows.map((row) => {
    const hideSender = !staffReader && isCompanyStaffEmail(row.user_email, companyDomain);
    return {
      id: Number(row.id),
      at: new Date(row.at).toISOString(),
      userId: hideSender ? 0 : (row.user_id ?? 0),
      userEmail: hideSender ? STAFF_SENDER : row.user_email,
      action: row.action as AuditAction,
      siteId: row.site_id,
      siteName: named(row.site_id, row.site_name),
      fromSiteId: row.from_site_id,
      fromSiteName: named(row.from_site_id, row.from_site_name),
      serial: row.serial,
      modelId: row.model_id,
      oldName: row.old_name,
      newName: row.new_name,
      otherSerial: row.other_serial,
    };
  });
}
