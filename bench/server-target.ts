// The server under load, in its own process: seeds the bulk data, adds a bare JSON endpoint of
// the same framework as the yardstick (and a switch to turn the list page cache off), listens on a free port and prints `READY <port>`.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { PageCache } from '../server/cache/page-cache.ts';
import { createServer } from '../server/create-server.ts';
import { parseEnv } from '../server/env.ts';
import { seedBulk } from './server-seed.ts';

const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const env = parseEnv({
  ...process.env,
  DATA_DIR: process.env.DATA_DIR ?? '.tmp/bench-data',
  // The load runs as the seeded installer, on PostgreSQL too.
  SEED_DEMO: '1',
  LOGIN_LIMIT_PER_ACCOUNT: '1000000000',
  LOGIN_LIMIT_PER_ADDRESS: '1000000000',
});
const server = await createServer({ env, services: 'all' });
const started = Date.now();
const added = await seedBulk(server.ctx.db, 2, SITES);
console.error(`seeded ${added} sites (${added * 3} devices) in ${Date.now() - started} ms`);
// The yardstick is its own Hono app in front of the server's, so it skips the app's static-file
// lookup (a file-system check per request). The same route inside the server's app, behind that
// lookup, is kept as a second figure: earlier runs used it as their yardstick.
const bare = new Hono();
bare.get('/bench/bare', (c) => c.json({ ok: true, items: [1, 2, 3] }));
server.app.get('/bench/bare-in-app', (c) => c.json({ ok: true, items: [1, 2, 3] }));
// Lets the load generator measure list calls without the page cache (every page read from
// the database, through the remembered anchors), as after a change to the list.
server.app.post('/bench/page-cache/off', (c) => {
  server.ctx.lists.pages = new PageCache(0);
  return c.json({ ok: true });
});
const fetch = (request: Request) =>
  request.url.endsWith('/bench/bare') ? bare.fetch(request) : server.app.fetch(request);
const http = serve({ fetch, port: 0 }, (info) => console.log(`READY ${info.port}`));
process.on('SIGTERM', () => {
  http.close();
  void server.close().then(() => process.exit(0));
});
