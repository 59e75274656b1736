// Weight of the app: builds it and prints the gzipped JavaScript and CSS that the sign-in
// screen loads, and the largest route chunk. Figures only; the target (≤ 200 KB of gzipped
// JavaScript for the sign-in screen) is reported, never asserted.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Manifest } from 'vite';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, '.tmp/bench-web');
const SIGN_IN_TARGET_KB = 200;

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

async function main() {
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
  for (const figure of figures) console.log(JSON.stringify(figure));
  rmSync(OUT, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
