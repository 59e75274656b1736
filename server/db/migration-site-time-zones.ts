import { type Kysely, sql } from 'kysely';
import { siteZone } from '../sites/site-zones.ts';
import type { Database } from './schema.ts';

/**
 * Migration 16: every site has an IANA time zone (`sites.time_zone`), whose midnight starts its
 * days: daily rollups, energy per day, "today", the charts' clock, alarm times and reports.
 * Existing sites get the zone at their position, else their country's, else the configured
 * `TELEMETRY_TIME_ZONE` (what their days were counted in so far). The lookup is JavaScript (an
 * offline map of the zone boundaries), so the column is added in SQL, filled here, then made
 * NOT NULL, all in the migration's one transaction.
 */
export const SITE_TIME_ZONES_SQL = `
  ALTER TABLE sites ADD COLUMN time_zone text;
`;

/** Fill `sites.time_zone` for the sites without one, then require it. */
export async function fillSiteTimeZones(trx: Kysely<Database>, fallbackZone: string): Promise<void> {
  const known = new Set(
    (await sql<{ name: string }>`SELECT name FROM pg_timezone_names`.execute(trx)).rows.map((r) => r.name),
  );
  const sites = await sql<{ id: number; latitude: number; longitude: number; country: string }>`
    SELECT id, latitude, longitude, country FROM sites WHERE time_zone IS NULL`.execute(trx);
  const byZone = new Map<string, number[]>();
  for (const site of sites.rows) {
    const zone = siteZone(site, fallbackZone, known);
    byZone.set(zone, [...(byZone.get(zone) ?? []), site.id]);
  }
  for (const [zone, ids] of byZone)
    await sql`UPDATE sites SET time_zone = ${zone} WHERE id = ANY(${ids}::int[])`.execute(trx);
  await sql`ALTER TABLE sites ALTER COLUMN time_zone SET NOT NULL`.execute(trx);
}
