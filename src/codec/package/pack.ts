// Builds the codec's installable package and packs it:
//   npm run pack:codec [-- --out <folder>]
// The package is assembled in build/codec-package/ (or <folder>) from the same sources the app
// imports: the typed face bundled as ESM by esbuild (Node, browser and the fleet-codec command),
// its .d.ts written by tsc, the release build/codec.wasm, the test vectors and docs/codec.md.
// `npm pack` then writes the tarball beside that folder and its path is printed last.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');

function outFolder(args: readonly string[]): string {
  const at = args.indexOf('--out');
  if (at < 0) return join(root, 'build/codec-package');
  const value = args[at + 1];
  if (!value) throw new Error('--out needs a folder');
  return resolve(value);
}

/** Bundles the package's ESM entries; returns what went into them. */
async function bundle(out: string): Promise<Metafile[]> {
  const common = { bundle: true, format: 'esm', target: 'es2022', outdir: out, metafile: true } as const;
  const results = await Promise.all([
    build({ ...common, platform: 'node', entryPoints: { node: join(here, 'node.ts') } }),
    build({ ...common, platform: 'browser', entryPoints: { browser: join(here, 'browser.ts') } }),
    // The command reads descriptor files with zod: bundled in, so the package needs no dependency,
    // and split into a chunk of its own that only decode and encode load, as in the checkout.
    build({
      ...common,
      platform: 'node',
      entryPoints: { cli: join(here, 'cli.ts') },
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
    }),
  ]);
  return results.map((r) => r.metafile);
}

/** The npm packages bundled into the entries, with the licence each asks to be shipped with it. */
function thirdPartyNotices(metafiles: readonly Metafile[]): string {
  const names = new Set<string>();
  for (const meta of metafiles) {
    for (const input of Object.keys(meta.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (match?.[1]) names.add(match[1]);
    }
  }
  const require = createRequire(join(root, 'package.json'));
  const sections = [...names].sort().map((name) => {
    const dir = dirname(require.resolve(`${name}/package.json`));
    const { version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
    const text = file ? readFileSync(join(dir, file), 'utf8').trim() : `Licence: ${license}`;
    return `## ${name} ${version}\n\n${text}\n`;
  });
  return `# Third-party code bundled in this package\n\n${sections.join('\n')}`;
}

function copyInto(out: string): void {
  const wasm = join(root, 'build/codec.wasm');
  if (!existsSync(wasm)) throw new Error(`${wasm} is missing: run npm run build:wasm first`);
  copyFileSync(wasm, join(out, 'codec.wasm'));
  copyFileSync(join(here, 'manifest.json'), join(out, 'package.json'));
  copyFileSync(join(here, 'README.md'), join(out, 'README.md'));
  copyFileSync(join(root, 'docs/codec.md'), join(out, 'codec.md'));
  mkdirSync(join(out, 'vectors'));
  for (const name of readdirSync(join(root, 'tests/vectors')).filter((f) => f.endsWith('.json'))) {
    copyFileSync(join(root, 'tests/vectors', name), join(out, 'vectors', name));
  }
}

/**
 * The face's export types come from what asc wrote beside the module (`build/codec.d.ts`): the
 * package ships that file with its types and the face's declaration points at it, so no
 * declaration reaches outside the package.
 */
function shipBindingTypes(types: string): void {
  copyFileSync(join(root, 'build/codec.d.ts'), join(types, 'codec-bindings.d.ts'));
  const face = join(types, 'wasm-exports.d.ts');
  const text = readFileSync(face, 'utf8');
  if (!text.includes("'../../build/codec.js'")) throw new Error(`${face} no longer imports build/codec.js`);
  writeFileSync(face, text.replace("'../../build/codec.js'", "'./codec-bindings.js'"));
}

/**
 * Assembles the package in `out` and packs it beside that folder.
 * @returns the tarball's path.
 */
export async function packCodec(out: string): Promise<string> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  copyInto(out);
  const metafiles = await bundle(out);
  const cli = join(out, 'cli.js');
  writeFileSync(cli, `#!/usr/bin/env node\n${readFileSync(cli, 'utf8')}`);
  writeFileSync(join(out, 'THIRD-PARTY-NOTICES.md'), thirdPartyNotices(metafiles));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json'), '--outDir', join(out, 'types')], {
    stdio: 'inherit',
  });
  shipBindingTypes(join(out, 'types'));
  const packed = execFileSync(
    'npm',
    ['pack', '--json', '--pack-destination', dirname(out), '--no-fund', '--no-audit'],
    { cwd: out, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [{ filename }] = JSON.parse(packed) as [{ filename: string }];
  return join(dirname(out), basename(filename));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await packCodec(outFolder(process.argv.slice(2))));
}
