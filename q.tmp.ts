import pg from 'pg';
import { openDatabase } from './server/db/database.ts';
import { ensurePartitions } from './server/monitoring/telemetry/partitions.ts';
import { seedChartRollups } from './bench/telemetry-seed.ts';
const url = 'postgres://postgres@127.0.0.1:55418/prof';
const c = new pg.Client(url); await c.connect();
const ids = (await c.query('SELECT id FROM devices WHERE serial >= $1 ORDER BY id LIMIT 200', ['HX5K-26-100000'])).rows.map(r => r.id);
if (process.env.SEED) {
  const db = openDatabase({ url }, 2); await ensurePartitions(db, Date.now() - 32 * 86400000, Date.now()); await db.destroy();
  await seedChartRollups(c, ids, 30, () => {}); await c.query('ANALYZE telemetry_5m');
}
const to = new Date(), from = new Date(Date.now() - 30 * 86400000);
const qA = `EXPLAIN (ANALYZE, BUFFERS) SELECT (extract(epoch from slot) * 1000)::float8 AS t, sum(v) AS v FROM (
      SELECT r.device_id, date_trunc('hour', r.bucket) AS slot, sum(r.total) / nullif(sum(r.n), 0) AS v
      FROM telemetry_5m r JOIN unnest($1::int[], $2::text[]) AS s(device_id, metric)
        ON r.device_id = s.device_id AND r.metric = s.metric
      WHERE r.bucket >= $3 AND r.bucket < $4
      GROUP BY r.device_id, slot) per_device WHERE v IS NOT NULL GROUP BY slot ORDER BY slot`;
const qB = `EXPLAIN (ANALYZE, BUFFERS) SELECT (extract(epoch from date_trunc('hour', bucket)) * 1000)::float8 AS t, sum(total) / nullif(sum(n), 0) AS v
      FROM telemetry_5m WHERE device_id = $1 AND metric = $2 AND bucket >= $3 AND bucket < $4
      GROUP BY date_trunc('hour', bucket) ORDER BY 1`;
for (const [name, q, p] of [['A', qA, [[ids[7]], ['pvPower'], from, to]], ['B', qB, [ids[7], 'pvPower', from, to]]] as const) {
  for (let i = 0; i < 3; i++) { const r = await c.query(q, p as unknown[]); if (i === 2) console.log(name, r.rows.map((x: any) => x['QUERY PLAN']).join('\n')); }
}
await c.end();
