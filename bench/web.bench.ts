// Weight and speed of the sign-in screen. Builds the app and prints the gzipped JavaScript and
// CSS the sign-in screen loads and the largest route chunk; then serves the build and loads the
// sign-in screen in Chromium under slow 4G and a 4× CPU slowdown, cold and warm (web-load.ts).
// Figures only; the targets are reported, never asserted.
//   npm run bench:web                      build, weigh, serve, load
//   npm run bench:web -- --url http://…    only load, from a server already running there

import { readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { build, type Manifest } from 'vite';
import { generateSigningKey } from '../server/auth/signing-keys.ts';
import { createServer } from '../server/create-server.ts';
import { parseEnv } from '../server/env.ts';
import { CPU_SLOWDOWN, type LoadFigures, measureSignInLoad, SLOW_4G } from './web-load.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, '.tmp/bench-web');
const SIGN_IN_TARGET_KB = 120;
const COLD_TARGET_MS = 2500;
const WARM_TARGET_MS = 1000;

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const gzipKb = (file: string) => gzipSync(readFileSync(join(OUT, file)), { level: 9 }).length / 1024;
const round = (kb: number) => Math.round(kb * 10) / 10;

/** Every chunk a key loads before it runs: itself and its static imports, transitively. */
function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
  return seen;
}

function filesOf(manifest: Manifest, keys: Set<string>) {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk) continue;
    if (chunk.file.endsWith('.js')) js.add(chunk.file);
    for (const sheet of chunk.css ?? []) css.add(sheet);
  }
  return { js, css };
}

/** Serves the built app and both services from OUT, on a free port, with an empty database. */
async function serveBuild() {
  const fleet = await createServer({
    env: parseEnv({ DATA_DIR: join(ROOT, '.tmp/bench-web-data') }),
    database: { pgliteDir: 'memory://' },
    keys: { config: (await generateSigningKey()).key, monitoring: (await generateSigningKey()).key },
    seed: false,
    distDir: OUT,
  });
  const listener = serve({ fetch: fleet.app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
  await new Promise((resolve) => listener.once('listening', resolve));
  const address = listener.address();
  return {
    origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    stop: async () => {
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
      await fleet.close();
    },
  };
}

async function printLoad(origin: string): Promise<Figure[]> {
  const kbits = Math.round((SLOW_4G.downloadThroughput * 8) / 1024);
  console.log(
    `Loading ${origin}/login in Chromium: ${SLOW_4G.latency} ms latency, ${kbits} kbit/s down, CPU ${CPU_SLOWDOWN}× slower (median of 5)`,
  );
  const { cold, warm } = await measureSignInLoad(origin);
  const line = (name: string, f: LoadFigures, target: number) =>
    console.log(
      `  ${name}: E-mail field visible ${f.emailVisibleMs} ms (target ≤ ${target} ms: ${f.emailVisibleMs <= target ? 'within' : 'OVER'}), LCP ${f.lcpMs} ms, ${f.transferredKb} KB transferred`,
    );
  line('cold', cold, COLD_TARGET_MS);
  line('warm', warm, WARM_TARGET_MS);
  return [
    { name: 'web.signin.cold.email_visible', value: cold.emailVisibleMs, unit: 'ms' },
    { name: 'web.signin.cold.lcp', value: cold.lcpMs, unit: 'ms' },
    { name: 'web.signin.cold.transferred', value: cold.transferredKb, unit: 'KB' },
    { name: 'web.signin.warm.email_visible', value: warm.emailVisibleMs, unit: 'ms' },
    { name: 'web.signin.warm.lcp', value: warm.lcpMs, unit: 'ms' },
    { name: 'web.signin.warm.transferred', value: warm.transferredKb, unit: 'KB' },
  ];
}

async function main() {
  const urlFlag = process.argv.indexOf('--url');
  if (urlFlag !== -1) {
    const origin = process.argv[urlFlag + 1]?.replace(/\/$/, '');
    if (!origin)
      throw new Error('--url needs the address of a running Fleet Manager, e.g. http://127.0.0.1:8080');
    for (const figure of await printLoad(origin)) console.log(JSON.stringify(figure));
    return;
  }
  rmSync(OUT, { recursive: true, force: true });
  await build({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir: OUT, manifest: true, emptyOutDir: true, sourcemap: false },
  });
  const manifest = JSON.parse(readFileSync(join(OUT, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('The build has no entry chunk');
  const routeKeys = Object.keys(manifest).filter((key) => key.includes('src/routes/'));
  const loginKeys = routeKeys.filter((key) => key.startsWith('src/routes/login.tsx'));
  const signIn = filesOf(manifest, staticClosure(manifest, [entry, ...loginKeys]));
  const signInJs = [...signIn.js].reduce((sum, file) => sum + gzipKb(file), 0);
  const signInCss = [...signIn.css].reduce((sum, file) => sum + gzipKb(file), 0);
  const routeChunks = routeKeys
    .filter((key) => manifest[key]?.isDynamicEntry)
    .map((key) => ({ key, kb: gzipKb(manifest[key]?.file ?? '') }))
    .sort((a, b) => b.kb - a.kb);
  const largest = routeChunks[0];

  console.log(`Sign-in screen loads ${signIn.js.size} JS files and ${signIn.css.size} CSS files:`);
  for (const file of [...signIn.js, ...signIn.css])
    console.log(`  ${file}  ${round(gzipKb(file))} KB gzipped`);
  console.log(
    `Route chunks: ${routeChunks.length}; largest ${largest?.key ?? 'none'} (${round(largest?.kb ?? 0)} KB)`,
  );
  const verdict = signInJs <= SIGN_IN_TARGET_KB ? 'within' : 'OVER';
  console.log(
    `Sign-in JavaScript ${round(signInJs)} KB gzipped: ${verdict} the ${SIGN_IN_TARGET_KB} KB target`,
  );

  const figures: Figure[] = [
    { name: 'web.signin.js.gzip', value: round(signInJs), unit: 'KB' },
    { name: 'web.signin.css.gzip', value: round(signInCss), unit: 'KB' },
    { name: 'web.route.largest.gzip', value: round(largest?.kb ?? 0), unit: 'KB' },
  ];
  const server = await serveBuild();
  try {
    figures.push(...(await printLoad(server.origin)));
  } finally {
    await server.stop();
  }
  for (const figure of figures) console.log(JSON.stringify(figure));
  rmSync(OUT, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
