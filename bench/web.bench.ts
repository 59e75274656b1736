// Speed of the signed-out pages. Builds the app and prints the gzipped JavaScript and CSS the
// sign-in screen loads and the largest route chunk; then serves the build and loads the sign-in
// screen in Chromium under slow 4G and a 4× CPU slowdown, a first visit and two second visits side
// by side (the service worker still running, and stopped; web-load.ts): the E-mail field visible
// and "Sign in" working; then Lighthouse 12's mobile scores for /login,
// /sunspec-config and /device-details-old/{id} (web-lighthouse.ts).
// Figures only; the targets are reported, never asserted.
//   npm run bench:web                               build, weigh, serve, load, Lighthouse
//   npm run bench:web -- --baseline <dist folder>   the same, and an older build served beside it,
//                                                   its loads taking turns with this build's
//   npm run bench:web -- --dist <dist folder>       only serve that build, load, Lighthouse (and
//                                                   a --baseline beside it)
//   npm run bench:web -- --url http://…             only load and Lighthouse, from a running server
//   --runs N (5 by default), --lighthouse-runs N (3 by default, the median reported), --no-lighthouse

import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { build, type Manifest } from 'vite';
import { generateSigningKey } from '../server/auth/signing-keys.ts';
import { createServer } from '../server/create-server.ts';
import { parseEnv } from '../server/env.ts';
import { type LighthouseScores, runLighthouse } from './web-lighthouse.ts';
import { CPU_SLOWDOWN, type LoadFigures, measureSignInLoads, type SignInLoad, SLOW_4G } from './web-load.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, '.tmp/bench-web');
/** A model of the bundled catalogue, for the open device details page. */
const DEVICE_PATH = '/device-details-old/HX-5000';
const LIGHTHOUSE_PATHS = ['/login', '/sunspec-config', DEVICE_PATH];
const TARGETS = {
  emailVisibleColdMs: 1200,
  emailVisibleWarmMs: 600,
  signInWorkingColdMs: 2500,
  performance: { '/login': 0.95, '/sunspec-config': 0.9, [DEVICE_PATH]: 0.9 } as Record<string, number>,
  accessibility: 1,
};

interface Figure {
  name: string;
  value: number;
  unit: string;
}

const gzipKb = (file: string) => gzipSync(readFileSync(join(OUT, file)), { level: 9 }).length / 1024;
const round = (kb: number) => Math.round(kb * 10) / 10;
const verdict = (value: number, target: number, atMost = true) =>
  (atMost ? value <= target : value >= target) ? 'within' : 'OVER';

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

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

/** Serves a built app and both services from `distDir`, on a free port, with an empty database. */
async function serveBuild(distDir: string) {
  const fleet = await createServer({
    env: parseEnv({ DATA_DIR: join(ROOT, '.tmp/bench-web-data') }),
    database: { pgliteDir: 'memory://' },
    keys: { config: (await generateSigningKey()).key, monitoring: (await generateSigningKey()).key },
    seed: false,
    distDir,
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

/** Builds the app into OUT and prints what the sign-in screen loads. */
async function buildAndWeigh(): Promise<Figure[]> {
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
  const page = (name: string) => gzipSync(readFileSync(join(OUT, name)), { level: 9 }).length / 1024;

  console.log(`Sign-in screen loads ${signIn.js.size} JS files and ${signIn.css.size} CSS files:`);
  for (const file of [...signIn.js, ...signIn.css])
    console.log(`  ${file}  ${round(gzipKb(file))} KB gzipped`);
  const html = existsSync(join(OUT, 'login.html')) ? 'login.html' : 'index.html';
  console.log(`  ${html} (the page itself)  ${round(page(html))} KB gzipped`);
  console.log(
    `Route chunks: ${routeChunks.length}; largest ${largest?.key ?? 'none'} (${round(largest?.kb ?? 0)} KB)`,
  );
  console.log(`Sign-in JavaScript ${round(signInJs)} KB gzipped, CSS ${round(signInCss)} KB`);
  return [
    { name: 'web.signin.js.gzip', value: round(signInJs), unit: 'KB' },
    { name: 'web.signin.css.gzip', value: round(signInCss), unit: 'KB' },
    { name: 'web.signin.html.gzip', value: round(page(html)), unit: 'KB' },
    { name: 'web.route.largest.gzip', value: round(largest?.kb ?? 0), unit: 'KB' },
  ];
}

/** The visits as columns: what each measures. */
const VISIT_COLUMNS = [
  { key: 'first', title: 'first visit' },
  { key: 'warm', title: 'second, worker running' },
  { key: 'second', title: 'second, worker stopped' },
] as const;

/** The three visits side by side, one figure a row, then the targets. */
function printLoad(label: string, load: SignInLoad, prefix: string): Figure[] {
  const rows: [string, (f: LoadFigures) => string][] = [
    ['E-mail field visible', (f) => `${f.emailVisibleMs} ms`],
    ['"Sign in" working', (f) => `${f.signInWorkingMs} ms`],
    ['LCP', (f) => `${f.lcpMs} ms`],
    ['transferred', (f) => `${f.transferredKb} KB`],
  ];
  const width = 24;
  if (label) console.log(`  ${label}`);
  console.log(`  ${''.padEnd(width)}${VISIT_COLUMNS.map((c) => c.title.padStart(width)).join('')}`);
  for (const [name, text] of rows)
    console.log(
      `  ${name.padEnd(width)}${VISIT_COLUMNS.map((c) => text(load[c.key]).padStart(width)).join('')}`,
    );
  const seconds = [load.warm.emailVisibleMs, load.second.emailVisibleMs];
  console.log(
    `  targets: E-mail field first ≤ ${TARGETS.emailVisibleColdMs} ms (${verdict(load.first.emailVisibleMs, TARGETS.emailVisibleColdMs)}), ` +
      `second ≤ ${TARGETS.emailVisibleWarmMs} ms (${seconds.map((ms) => verdict(ms, TARGETS.emailVisibleWarmMs)).join(', ')}), ` +
      `never slower than the first (${seconds.map((ms) => verdict(ms, load.first.emailVisibleMs)).join(', ')}); ` +
      `"Sign in" working first ≤ ${TARGETS.signInWorkingColdMs} ms (${verdict(load.first.signInWorkingMs, TARGETS.signInWorkingColdMs)})`,
  );
  return VISIT_COLUMNS.flatMap(({ key }) => {
    const f = load[key];
    return [
      { name: `${prefix}.signin.${key}.email_visible`, value: f.emailVisibleMs, unit: 'ms' },
      { name: `${prefix}.signin.${key}.sign_in_working`, value: f.signInWorkingMs, unit: 'ms' },
      { name: `${prefix}.signin.${key}.lcp`, value: f.lcpMs, unit: 'ms' },
      { name: `${prefix}.signin.${key}.transferred`, value: f.transferredKb, unit: 'KB' },
    ];
  });
}

function printLighthouse(label: string, scores: LighthouseScores[], prefix: string): Figure[] {
  const figures: Figure[] = [];
  for (const s of scores) {
    const target = TARGETS.performance[s.path] ?? 0.9;
    console.log(
      `  ${label} ${s.path}: performance ${s.performance} (target ≥ ${target}: ${verdict(s.performance, target, false)}), ` +
        `accessibility ${s.accessibility} (target ${TARGETS.accessibility}: ${verdict(s.accessibility, TARGETS.accessibility, false)}); ` +
        `FCP ${s.fcpMs} ms, LCP ${s.lcpMs} ms, TBT ${s.tbtMs} ms, CLS ${s.cls} (median run; performance of each: ${s.performanceRuns.join(', ')})`,
    );
    if (s.accessibilityFailures.length > 0)
      console.log(`    accessibility audits failed: ${s.accessibilityFailures.join('; ')}`);
    const page = s.path.split('/')[1] ?? 'page';
    figures.push(
      { name: `${prefix}.lighthouse.${page}.performance`, value: s.performance, unit: 'score' },
      { name: `${prefix}.lighthouse.${page}.accessibility`, value: s.accessibility, unit: 'score' },
      { name: `${prefix}.lighthouse.${page}.lcp`, value: s.lcpMs, unit: 'ms' },
      { name: `${prefix}.lighthouse.${page}.cls`, value: s.cls, unit: 'score' },
    );
  }
  return figures;
}

/** Loads and Lighthouse for each build: `builds[0]` is this one, a second one the baseline. */
async function measureBuilds(builds: { label: string; prefix: string; origin: string }[]) {
  const runs = Number(argument('--runs') ?? 5);
  const kbits = Math.round((SLOW_4G.downloadThroughput * 8) / 1024);
  console.log(
    `Loading /login in Chromium: ${SLOW_4G.latency} ms latency, ${kbits} kbit/s down, CPU ${CPU_SLOWDOWN}× slower (median of ${runs}${builds.length > 1 ? ', the builds taking turns' : ''})`,
  );
  const loads = await measureSignInLoads(
    builds.map((b) => b.origin),
    runs,
  );
  const figures: Figure[] = [];
  for (const [index, b] of builds.entries()) {
    const load = loads[index];
    if (load) figures.push(...printLoad(b.label, load, b.prefix));
  }
  if (process.argv.includes('--no-lighthouse')) return figures;
  console.log('Lighthouse 12, mobile profile (simulated slow 4G, 4× CPU):');
  for (const b of builds)
    figures.push(
      ...printLighthouse(
        b.label,
        await runLighthouse(b.origin, LIGHTHOUSE_PATHS, Number(argument('--lighthouse-runs') ?? 3)),
        b.prefix,
      ),
    );
  return figures;
}

async function main() {
  const url = argument('--url');
  if (process.argv.includes('--url')) {
    const origin = url?.replace(/\/$/, '');
    if (!origin)
      throw new Error('--url needs the address of a running Fleet Manager, e.g. http://127.0.0.1:8080');
    for (const figure of await measureBuilds([{ label: '', prefix: 'web', origin }]))
      console.log(JSON.stringify(figure));
    return;
  }
  const only = argument('--dist');
  const baselineDir = argument('--baseline');
  const figures = only ? [] : await buildAndWeigh();
  const current = await serveBuild(only ? resolve(only) : OUT);
  const baseline = baselineDir ? await serveBuild(resolve(baselineDir)) : undefined;
  try {
    figures.push(
      ...(await measureBuilds([
        { label: baseline ? 'this build,' : '', prefix: 'web', origin: current.origin },
        ...(baseline ? [{ label: 'baseline,', prefix: 'web.baseline', origin: baseline.origin }] : []),
      ])),
    );
  } finally {
    await current.stop();
    await baseline?.stop();
  }
  for (const figure of figures) console.log(JSON.stringify(figure));
  if (only) return;
  rmSync(OUT, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
