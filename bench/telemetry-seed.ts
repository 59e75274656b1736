import { createHash } from 'node:crypto';
import type pg from 'pg';

/** The seeded installer who sees the bench's sites (installer A of the demo). */
const INSTALLER_ID = 2;
const DEVICES_PER_SITE = 10;

/** `count` serial numbers of the bench's devices: HX5K-26-100000, HX5K-26-100001, … */
export function benchSerial(i: number): string {
  return `HX5K-26-${String(100_000 + i).padStart(6, '0')}`;
}

/**
 * The bench's devices: `count` HX-5000s on sites of ten, all the installer's, all with the one
 * secret `secret` (stored as its SHA-256, as for any device). Answers their ids in serial order.
 */
export async function seedBenchDevices(client: pg.Client, count: number, secret: string): Promise<number[]> {
  const sites = Math.ceil(count / DEVICES_PER_SITE);
  await client.query('BEGIN');
  const siteRows = await client.query<{ id: number }>(
    `INSERT INTO sites (name, display_address, latitude, longitude, time_zone, installer_id)
     SELECT 'Bench site ' || g, g || ' Bench Road, Austin, TX', 30.27, -97.74, 'America/Chicago', $2
     FROM generate_series(1, $1) g RETURNING id`,
    [sites, INSTALLER_ID],
  );
  const siteIds = siteRows.rows.map((row) => row.id).sort((a, b) => a - b);
  await client.query(
    `INSERT INTO site_access (site_id, user_id, roles, access)
     SELECT id, $2, ARRAY['installer', 'configurator'], true FROM unnest($1::int[]) id`,
    [siteIds, INSTALLER_ID],
  );
  const serials = Array.from({ length: count }, (_, i) => benchSerial(i));
  const devices = await client.query<{ id: number }>(
    `INSERT INTO devices (model_id, serial, name, site_id)
     SELECT 'HX-5000', s, 'Bench inverter', ($2::int[])[((n - 1) / ${DEVICES_PER_SITE}) + 1]
     FROM unnest($1::text[]) WITH ORDINALITY AS u(s, n) RETURNING id`,
    [serials, siteIds],
  );
  const ids = devices.rows.map((row) => row.id).sort((a, b) => a - b);
  await client.query(
    `INSERT INTO device_secrets (device_id, secret_hash) SELECT id, $2 FROM unnest($1::int[]) id`,
    [ids, createHash('sha256').update(secret).digest('hex')],
  );
  await client.query('COMMIT');
  return ids;
}

/**
 * 5-minute, hourly and daily rollups of `days` days for the devices given, as telemetry and the
 * fold would have left them: power, state of charge and the energy counter, one step every 5 minutes. Written in the
 * database itself (generate_series), a few devices per statement. Answers the rows written.
 */
export async function seedChartRollups(
  client: pg.Client,
  deviceIds: readonly number[],
  days: number,
  progress: (done: number) => void,
): Promise<number> {
  const to = Math.floor(Date.now() / 300_000) * 300_000;
  const from = to - days * 86_400_000;
  let rows = 0;
  for (let i = 0; i < deviceIds.length; i += 25) {
    const chunk = deviceIds.slice(i, i + 25);
    const result = await client.query(
      `INSERT INTO telemetry_5m (device_id, bucket, metrics, n, total, min, max, last, last_at, increase, folded)
       SELECT d, b, ARRAY['pvPower', 'batterySoc', 'energyTotal'], ARRAY[30, 30, 30],
              ARRAY[30 * v, 30 * soc, 30 * 1000], ARRAY[v * 0.9, soc - 1, 1000], ARRAY[v * 1.1, soc + 1, 1000],
              ARRAY[v, soc, 1000], ARRAY[b + interval '295 seconds', b + interval '295 seconds', b + interval '295 seconds'],
              ARRAY[NULL, NULL, 0.25]::float8[], true
       FROM unnest($1::int[]) d
       CROSS JOIN generate_series($2::timestamptz, $3::timestamptz, interval '5 minutes') b
       CROSS JOIN LATERAL (SELECT greatest(0, 2500 * sin(extract(epoch FROM b) / 13751.0 + d))::float8 AS v,
                                  (55 + 35 * sin(extract(epoch FROM b) / 13751.0))::float8 AS soc) val
       ON CONFLICT DO NOTHING`,
      [chunk, new Date(from).toISOString(), new Date(to).toISOString()],
    );
    // The fold's work: each metric's steps into its hours and days.
    const narrow = `SELECT f.device_id, m.metric, f.bucket, m.n, m.total, m.min, m.max, m.last, m.last_at, m.increase
       FROM telemetry_5m f CROSS JOIN LATERAL unnest(f.metrics, f.n, f.total, f.min, f.max, f.last, f.last_at, f.increase)
         AS m(metric, n, total, min, max, last, last_at, increase)
       WHERE f.device_id = ANY($1::int[])`;
    await client.query(
      `INSERT INTO telemetry_1h (device_id, metric, hour, n, total, min, max, last, last_at, increase)
       SELECT device_id, metric, date_trunc('hour', bucket), sum(n), sum(total), min(min), max(max),
              max(last), max(last_at), sum(increase)
       FROM (${narrow}) s GROUP BY device_id, metric, date_trunc('hour', bucket)
       ON CONFLICT DO NOTHING`,
      [chunk],
    );
    await client.query(
      `INSERT INTO telemetry_1d (device_id, metric, day, n, total, min, max, last, last_at, increase)
       SELECT device_id, metric, (bucket AT TIME ZONE 'UTC')::date, sum(n), sum(total), min(min), max(max),
              max(last), max(last_at), sum(increase)
       FROM (${narrow}) s GROUP BY device_id, metric, (bucket AT TIME ZONE 'UTC')::date
       ON CONFLICT DO NOTHING`,
      [chunk],
    );
    rows += result.rowCount ?? 0;
    progress(i + chunk.length);
  }
  return rows;
}
