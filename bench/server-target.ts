// The server under load, in its own process: seeds the bulk data, adds a bare JSON endpoint of
// the same framework as the yardstick, listens on a free port and prints `READY <port>`.
import { serve } from '@hono/node-server';
import { createServer } from '../server/create-server.ts';
import { parseEnv } from '../server/env.ts';
import { seedBulk } from './server-seed.ts';

const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const env = parseEnv({
  ...process.env,
  DATA_DIR: process.env.DATA_DIR ?? '.tmp/bench-data',
  LOGIN_LIMIT_PER_ACCOUNT: '1000000000',
  LOGIN_LIMIT_PER_ADDRESS: '1000000000',
});
const server = await createServer({ env, services: 'all' });
const started = Date.now();
const added = await seedBulk(server.ctx.db, 2, SITES);
console.error(`seeded ${added} sites (${added * 3} devices) in ${Date.now() - started} ms`);
server.app.get('/bench/bare', (c) => c.json({ ok: true, items: [1, 2, 3] }));
const http = serve({ fetch: server.app.fetch, port: 0 }, (info) => console.log(`READY ${info.port}`));
process.on('SIGTERM', () => {
  http.close();
  void server.close().then(() => process.exit(0));
});
