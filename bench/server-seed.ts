import { type Kysely, sql } from 'kysely';
import type { Database } from '../server/db/schema.ts';

/**
 * Bulk-load `sites` sites (attached to installer `installerId`) and three devices per site with
 * set-based SQL, then refresh the planner's statistics. Safe to call twice: it only tops up.
 */
export async function seedBulk(db: Kysely<Database>, installerId: number, sites: number): Promise<number> {
  const existing = await db
    .selectFrom('sites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const missing = sites - Number(existing.n);
  if (missing <= 0) return 0;
  await sql`
    INSERT INTO sites (name, display_address, street_number, street_name, postal_code, locality, state, country,
                       latitude, longitude, time_zone, installer_id)
    SELECT 'Bench Site ' || g, g || ' Congress Ave, Austin, TX 78701, USA', g::text, 'Congress Ave', '78701',
           'Austin', 'TX', 'US', 30.2 + (g % 1000) / 10000.0, -97.7 - (g % 1000) / 10000.0,
           'America/Chicago', ${installerId}
    FROM generate_series(1, ${missing}) AS g`.execute(db);
  await sql`
    INSERT INTO site_access (site_id, user_id, roles, access)
    SELECT s.id, ${installerId}, ARRAY['installer', 'configurator'], true FROM sites s
    WHERE NOT EXISTS (SELECT 1 FROM site_access a WHERE a.site_id = s.id AND a.user_id = ${installerId})`.execute(
    db,
  );
  await sql`
    INSERT INTO devices (model_id, serial, name, site_id)
    SELECT (ARRAY['HX-5000', 'BX-10', 'E1-40'])[k],
           (ARRAY['HX5K', 'BX10', 'E140'])[k] || '-26-' || lpad((s.id * 3 + k)::text, 6, '0'),
           'Bench device ' || k, s.id
    FROM sites s CROSS JOIN generate_series(1, 3) AS k
    WHERE s.name LIKE 'Bench Site %'`.execute(db);
  await sql`VACUUM ANALYZE`.execute(db);
  return missing;
}
