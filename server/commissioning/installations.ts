import { type Expression, type Kysely, type RawBuilder, sql } from 'kysely';
import { seesEverything } from '../../contracts/access-policy.ts';
import { visibleSiteIds } from '../access/install-access.ts';
import type { Viewer } from '../access/scope.ts';
import type { Database } from '../db/schema.ts';

/**
 * Installations: a device's stay on one site (DESIGN.md §5). History, audit records and the
 * commissioning report belong to an installation, never to a bare serial: serials are printed on
 * labels and easy to guess, and a unit taken off one company's site and put on another's must not
 * bring the first company's settings, names and free text with it.
 *
 * The database keeps them (migration 15): putting a device on a site begins one, a move ends it
 * and begins one at the new site, a replacement or a removal ends it; each history and audit
 * record is stamped with its serial's installation as it is written. A site belongs to an
 * installer company (migration 19, `sites.company_id`), and each installation remembers the
 * company that held its site: a site handed to another company ends its installations there and
 * begins new ones for the new holder (`server/companies/handovers.ts`), so its past stays, marked
 * with who held the site when.
 *
 * Who reads what: company staff read every installation's records; anyone else those of the
 * installations at sites they see now that were held by the site's company of now, so a new
 * holder (a device put on another company's site, or a site handed over) starts with an empty
 * past, and the owner of the site a device moved to does not read what was written at the site
 * it came from.
 *
 * Telemetry and alarms are kept by device row, which a move keeps (a new install or a replacement
 * makes a new one, so its past starts empty anyway). What a caller sees of them starts where the
 * device's newest stay at a site they do not see ended ({@link seenSince}): one bound per device,
 * so a series is read with a lower time bound, not a join per reading.
 */

/** Which installations' records of these serials a reader may read: `all` for one who sees everything. */
export async function readableInstallations(
  db: Kysely<Database>,
  reader: Viewer,
  serials: readonly string[],
): Promise<number[] | 'all'> {
  if (seesEverything(reader)) return 'all';
  if (serials.length === 0) return [];
  const stays = await db
    .selectFrom('installations')
    .leftJoin('sites', 'sites.id', 'installations.site_id')
    .select(['installations.id', 'installations.site_id'])
    .where('installations.serial', 'in', [...serials])
    .where(sql<boolean>`installations.company_id IS NOT DISTINCT FROM sites.company_id`)
    .execute();
  const seen = await visibleSiteIds(
    db,
    reader,
    stays.map((stay) => stay.site_id),
  );
  return stays.filter((stay) => seen.has(stay.site_id)).map((stay) => stay.id);
}

/** The installation a device on a site is in now (the report's settings are this stay's). */
export async function currentInstallation(db: Kysely<Database>, serial: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('installations')
    .select('id')
    .where('serial', '=', serial)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return row?.id;
}

/**
 * From when a caller sees a device's readings and alarms, as SQL: the end of the device's newest
 * installation at a site the caller does not see (`visible`: the caller's condition on `sites`;
 * an archived site is one nobody sees), or null when there is none and they see all of it. For
 * company staff (`visible` null) it is always null.
 * @example sql`a.raised_at >= coalesce(${seenSince(visible, sql.ref('a.device_id'))}, '-infinity')`
 */
export function seenSince(
  visible: RawBuilder<boolean> | null,
  deviceId: Expression<number>,
): RawBuilder<Date | null> {
  if (visible === null) return sql<null>`NULL::timestamptz`;
  return sql<Date | null>`(SELECT max(i.ended_at) FROM installations i LEFT JOIN sites ON sites.id = i.site_id
    WHERE i.device_id = ${deviceId} AND i.ended_at IS NOT NULL AND NOT coalesce(${visible}, false))`;
}
