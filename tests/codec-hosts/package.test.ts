// The codec as a firmware engineer gets it: `npm run pack:codec`'s tarball installed into an empty
// project (offline: the package has no dependencies), then every vector through the installed
// Node and browser entries and through the installed `fleet-codec` command.
import { execFile, execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { FirmwareCodec, FirmwareImageError } from '../../src/codec/firmware/image-types.ts';
import { CODEC_WASM_PATH } from '../../src/codec/load-node.ts';
import { packCodec } from '../../src/codec/package/pack.ts';
import type { Codec, CodecError } from '../../src/codec/types.ts';
import { buildImage } from '../codec/firmware-images.ts';
import { crc, describeVectors, fields, frames } from '../vectors/describe-vectors.ts';

const NAME = '@fleet-manager/codec';
const vectorsDir = fileURLToPath(new URL('../vectors/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'fleet-codec-package-'));
const project = join(scratch, 'project');
const run = promisify(execFile);

const tarball = await packCodec(join(scratch, 'package'));
mkdirSync(project);
writeFileSync(
  join(project, 'package.json'),
  JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
);
execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], {
  cwd: project,
  stdio: 'ignore',
});
const installed = join(project, 'node_modules', NAME);

/** What Node itself resolves in the project, for the given conditions. */
function resolveInProject(specifier: string, conditions: string[] = []): string {
  const script = `console.log(import.meta.resolve(${JSON.stringify(specifier)}))`;
  const file = join(project, 'resolve.mjs');
  writeFileSync(file, script);
  return execFileSync(process.execPath, [...conditions.flatMap((c) => ['-C', c]), file], {
    cwd: project,
    encoding: 'utf8',
  }).trim();
}

type Entry = {
  loadCodec(source?: string | URL): Promise<Codec>;
  loadFirmwareCodec(source?: string | URL): Promise<FirmwareCodec>;
  CodecError: typeof CodecError;
  FirmwareImageError: typeof FirmwareImageError;
};
const nodeEntryUrl = resolveInProject(NAME);
const browserEntryUrl = resolveInProject(NAME, ['browser']);
// Both live under node_modules, so they run as plain Node modules, not through the test's transform.
const nodeEntry = (await import(nodeEntryUrl)) as Entry;
const browserEntry = (await import(browserEntryUrl)) as Entry;

// The browser entry fetches its module: served here the way a web server would.
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/wasm' });
  response.end(readFileSync(join(installed, 'codec.wasm')));
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const address = server.address();
const wasmUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/codec.wasm`;

afterAll(() => {
  server.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the packed codec', () => {
  it('holds the release wasm, the ESM entries with .d.ts, the command and every vector, and no dependency', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(manifest.dependencies).toBeUndefined();
    expect(Object.keys(manifest.exports)).toEqual(['.', './codec.wasm', './vectors/*', './package.json']);
    expect(nodeEntryUrl).toBe(pathToFileURL(join(installed, 'node.js')).href);
    expect(browserEntryUrl).toBe(pathToFileURL(join(installed, 'browser.js')).href);
    expect(resolveInProject(`${NAME}/codec.wasm`)).toBe(pathToFileURL(join(installed, 'codec.wasm')).href);
    expect(readFileSync(join(installed, 'codec.wasm'))).toEqual(readFileSync(CODEC_WASM_PATH));
    for (const name of readdirSync(vectorsDir).filter((f) => f.endsWith('.json'))) {
      expect(readFileSync(join(installed, 'vectors', name), 'utf8')).toBe(
        readFileSync(join(vectorsDir, name), 'utf8'),
      );
    }
    for (const types of ['types/package/node.d.ts', 'types/package/browser.d.ts']) {
      expect(readFileSync(join(installed, types), 'utf8')).toMatch(/export declare function loadCodec/);
    }
  });

  it('ships every declaration its declarations import, the generated export types among them', () => {
    const unresolved: string[] = [];
    const visit = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (entry.name.endsWith('.d.ts')) {
          for (const [, specifier = ''] of readFileSync(path, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
            const target = join(folder, specifier).replace(/\.(ts|js)$/, '.d.ts');
            if (!target.startsWith(installed) || !existsSync(target))
              unresolved.push(`${path}: ${specifier}`);
          }
        }
      }
    };
    visit(join(installed, 'types'));
    expect(unresolved).toEqual([]);
    expect(readFileSync(join(installed, 'types/codec-bindings.d.ts'), 'utf8')).toMatch(/function crc16/);
  });

  it('gives TypeScript consumers the typed face, under Node and bundler resolution', () => {
    writeFileSync(
      join(project, 'use.ts'),
      [
        `import { type BufferDescriptor, type Codec, CodecError, type FirmwareImage, loadCodec, loadFirmwareCodec } from '${NAME}';`,
        'const codec: Codec = await loadCodec();',
        'const image: FirmwareImage = (await loadFirmwareCodec()).parseImage(new Uint8Array(0));',
        'const version: string = image.versionText;',
        'const d: BufferDescriptor = { position: 1, length: 16, signed: true, littleEndian: false };',
        'const value: number = codec.readField(new Uint8Array(4), d);',
        '// @ts-expect-error: a CRC is taken of bytes, not of text',
        "codec.crc16('123456789');",
        'export const checked = [value, version, CodecError];',
      ].join('\n'),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    for (const [module, resolution] of [
      ['nodenext', 'nodenext'],
      ['esnext', 'bundler'],
    ]) {
      const options = { strict: true, noEmit: true, module, moduleResolution: resolution, target: 'es2022' };
      const config = {
        // The package's own .d.ts are checked too; only TypeScript's lib files are skipped.
        compilerOptions: { ...options, lib: ['es2023', 'dom'], types: [], skipDefaultLibCheck: true },
        files: ['use.ts'],
      };
      writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(config));
      expect(() => execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' })).not.toThrow();
    }
  });

  it('the browser entry fetches codec.wasm beside itself unless given a URL, and names what it tried', async () => {
    const error = await browserEntry.loadCodec().catch((e: unknown) => e);
    // Node's fetch does not read file: URLs, so the default fails here, naming the URL it took.
    expect(error).toMatchObject({
      name: 'CodecLoadError',
      source: new URL('codec.wasm', browserEntryUrl).href,
    });
  });
});

describe('MCUboot images through the installed package', () => {
  const image = buildImage({ modelId: 'BX10', version: [2, 4, 1, 7] });
  for (const [name, load] of [
    ['Node entry', () => nodeEntry.loadFirmwareCodec()],
    ['browser entry', () => browserEntry.loadFirmwareCodec(wasmUrl)],
  ] as const) {
    it(`the ${name} reads a signed image and refuses a damaged one, naming why`, async () => {
      const entry = name === 'Node entry' ? nodeEntry : browserEntry;
      const firmware = await load();
      expect(firmware.parseImage(image)).toMatchObject({
        modelId: 'BX10',
        versionText: '2.4.1+7',
        size: image.length,
      });
      // The magic's first byte (0x3d, little-endian) zeroed.
      const damaged = Uint8Array.from(image);
      damaged[0] = 0;
      let refused: unknown;
      try {
        firmware.parseImage(damaged);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(entry.FirmwareImageError);
      expect(refused).toMatchObject({ code: 'image-magic' });
    });
  }
});

describeVectors('installed package, Node entry', await nodeEntry.loadCodec(), nodeEntry.CodecError);
describeVectors(
  'installed package, browser entry',
  await browserEntry.loadCodec(wasmUrl),
  browserEntry.CodecError,
);

describe('every vector the command line can express, through the installed fleet-codec', () => {
  const bin = join(project, 'node_modules/.bin/fleet-codec');
  const fleetCodec = async (...args: string[]) => {
    try {
      const { stdout } = await run(bin, args, { cwd: project, encoding: 'utf8' });
      return { status: 0, stdout: stdout.trim() };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { status: failed.code, stdout: failed.stdout.trim(), stderr: failed.stderr.trim() };
    }
  };
  const file = (name: string, data: unknown): string => {
    const path = join(project, name);
    writeFileSync(path, JSON.stringify(data));
    return path;
  };

  it('crc.json: crc16 prints each CRC and its wire bytes (an empty input it refuses: it needs hex)', async () => {
    const results = await Promise.all(crc.map((v) => fleetCodec('crc16', v.input)));
    crc.forEach((v, i) => {
      const wire = `${v.wire.slice(0, 2)} ${v.wire.slice(2)}`;
      expect(results[i]).toEqual(
        v.input === ''
          ? { status: 2, stdout: '', stderr: 'fleet-codec: hex input is empty' }
          : { status: 0, stdout: `${v.crc} ${wire}` },
      );
    });
  });

  it('frames.json: frame builds each frame, verify accepts it and rejects the bad ones', async () => {
    const built = await Promise.all(
      frames.built.map((v) =>
        fleetCodec(
          'frame',
          '--opcode',
          String(v.opcode),
          '--size',
          String(v.size),
          ...(v.payload ? [v.payload] : []),
        ),
      ),
    );
    expect(built.map((r) => r.stdout)).toEqual(frames.built.map((v) => v.frame));
    const verified = await Promise.all(
      frames.built.map((v) => fleetCodec('verify', '--size', String(v.size), v.frame)),
    );
    expect(verified.map((r) => r.stdout)).toEqual(frames.built.map(() => 'ok'));
    const rejected = await Promise.all(
      frames.rejected.map((v) =>
        fleetCodec('verify', ...(v.expectedSize === null ? [] : ['--size', String(v.expectedSize)]), v.frame),
      ),
    );
    expect(rejected.map((r) => r.status)).toEqual(frames.rejected.map(() => 1));
  });

  it(`fields.json: all ${fields.valid.length} field vectors encode to their bytes and decode back`, async () => {
    // Vectors whose bytes do not overlap share one frame, so six encode/decode pairs cover them all.
    const batches: (typeof fields.valid)[] = [];
    for (const v of fields.valid) {
      const [from, to] = [v.buffer.position, v.buffer.position + v.buffer.length / 8];
      const free = batches.find((b) =>
        b.every((o) => o.buffer.position + o.buffer.length / 8 <= from || o.buffer.position >= to),
      );
      if (free) free.push(v);
      else batches.push([v]);
    }
    await Promise.all(
      batches.map(async (batch, n) => {
        const items = batch.map((v, i) => ({ name: `f${i}`, buffer: v.buffer }));
        const descriptors = file(`fields-${n}.json`, items);
        const values = file(`values-${n}.json`, Object.fromEntries(batch.map((v, i) => [`f${i}`, v.value])));
        const encoded = await fleetCodec(
          'encode',
          '--descriptors',
          descriptors,
          '--values',
          values,
          '--opcode',
          '0',
          '--size',
          '255',
        );
        expect(encoded.status).toBe(0);
        batch.forEach((v) => {
          const at = v.buffer.position * 2;
          expect(encoded.stdout.slice(at, at + v.bytes.length)).toBe(v.bytes);
        });
        const decoded = await fleetCodec('decode', '--descriptors', descriptors, encoded.stdout);
        expect(JSON.parse(decoded.stdout)).toEqual(
          Object.fromEntries(batch.map((v, i) => [`f${i}`, v.value])),
        );
      }),
    );
  });

  it('cli-example.json: encode prints the example frame and decode reads it back', async () => {
    const example = JSON.parse(readFileSync(join(vectorsDir, 'cli-example.json'), 'utf8'));
    const descriptors = join(installed, 'vectors', example.descriptors);
    const values = join(installed, 'vectors', example.values);
    const size = ['--opcode', String(example.opcode), '--size', String(example.size)];
    expect(await fleetCodec('encode', '--descriptors', descriptors, '--values', values, ...size)).toEqual({
      status: 0,
      stdout: example.frame,
    });
    const decoded = await fleetCodec('decode', '--descriptors', descriptors, example.frame);
    expect(JSON.parse(decoded.stdout)).toEqual(example.decoded);
  });
});
