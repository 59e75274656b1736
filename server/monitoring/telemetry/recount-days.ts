import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DAYS_LOCK } from './rollup-steps.ts';

/**
 * Count a site's days again after its time zone changed from `oldZone` to the zone it has now in
 * this transaction: each device's daily rollups are rebuilt from its 5-minute steps (kept 400
 * days), so energy per day and "today" follow the new midnight. Days older than the oldest kept
 * step stay as they were counted, and so does the day that step falls in when older days exist
 * (its first hours are gone). Steps folded later go to the new zone's days (the fold reads the
 * zone); the exclusive {@link DAYS_LOCK} keeps a fold from adding to a day of the old zone
 * meanwhile.
 */
export async function recountSiteDays(
  trx: Transaction<Database>,
  siteId: number,
  oldZone: string,
): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${DAYS_LOCK})`.execute(trx);
  const devices = await sql<{ device_id: number; first: Date }>`
    SELECT f.device_id, min(f.bucket) AS first
    FROM telemetry_5m f JOIN devices d ON d.id = f.device_id
    WHERE d.site_id = ${siteId} AND f.folded
    GROUP BY f.device_id`.execute(trx);
  for (const device of devices.rows) {
    const first = new Date(device.first).toISOString();
    // With nothing counted before the oldest step, every day is rebuilt; else the first is kept.
    const older = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (
        SELECT 1 FROM telemetry_1d
        WHERE device_id = ${device.device_id} AND day < (${first}::timestamptz AT TIME ZONE ${oldZone})::date
        LIMIT 1) o`.execute(trx);
    const from = sql`(SELECT CASE WHEN ${(older.rows[0]?.n ?? 0) > 0}
      THEN (${first}::timestamptz AT TIME ZONE s.time_zone)::date + 1 ELSE '-infinity'::date END
      FROM sites s WHERE s.id = ${siteId})`;
    await sql`DELETE FROM telemetry_1d WHERE device_id = ${device.device_id} AND day >= ${from}`.execute(trx);
    await sql`
      INSERT INTO telemetry_1d (device_id, metric, day, n, total, min, max, last, last_at, increase)
      SELECT device_id, metric, day, sum(n), sum(total), min(min), max(max),
             (array_agg(last ORDER BY last_at DESC NULLS LAST))[1], max(last_at), sum(increase)
      FROM (
        SELECT f.device_id, m.metric, (f.bucket AT TIME ZONE s.time_zone)::date AS day,
               f.n[m.i] AS n, f.total[m.i] AS total, f.min[m.i] AS min, f.max[m.i] AS max,
               f.last[m.i] AS last, f.last_at[m.i] AS last_at, f.increase[m.i] AS increase
        FROM telemetry_5m f JOIN sites s ON s.id = ${siteId}
        CROSS JOIN LATERAL unnest(f.metrics) WITH ORDINALITY AS m(metric, i)
        WHERE f.device_id = ${device.device_id} AND f.folded
          AND (f.n[m.i] > 0 OR coalesce(f.increase[m.i], 0) <> 0)) steps
      WHERE day >= ${from}
      GROUP BY device_id, metric, day`.execute(trx);
  }
}
