// The codec in C: build/codec.wasm through wasm2c, the harness in src/codec/c/ compiled with gcc
// and run over tests/vectors, the same three commands docs/codec.md gives a firmware engineer; and
// the telemetry builder beside it, which makes a device's telemetry message in either form.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEC_WASM_PATH, loadCodec } from '../../src/codec/load-node.ts';
import { telemetryMessage } from '../../src/codec/telemetry-message.ts';
import { findTool } from '../find-tool.ts';
import { bundledConfig, telemetryFrame } from '../server/telemetry-frames.ts';
import { crc, fields, frames, passwords } from '../vectors/describe-vectors.ts';
import { firmwareVectors } from '../vectors/firmware-vectors.ts';
import { GCC, WABT, wasm2cRuntime } from './c-toolchain.ts';

const vectorsDir = fileURLToPath(new URL('../vectors/', import.meta.url));
const source = (f: string) => fileURLToPath(new URL(`../../src/codec/c/${f}`, import.meta.url));
const harness = ['vectors.c', 'json.c'].map(source);
const telemetry = ['telemetry-main.c', 'telemetry.c'].map(source);
const scratch = mkdtempSync(join(tmpdir(), 'codec-c-'));
const binary = join(scratch, 'codec-vectors');
const telemetryBinary = join(scratch, 'codec-telemetry');
let gcc: string;

beforeAll(() => {
  // On a machine without them, root installs wabt and gcc with apt; anyone else is told what to run.
  const wasm2c = findTool(WABT);
  gcc = findTool(GCC);
  const runtime = wasm2cRuntime(wasm2c);
  execFileSync(wasm2c, [CODEC_WASM_PATH, '-n', 'codec', '-o', join(scratch, 'codec.c')]);
  // The generated module and its runtime compiled once, linked into both programs.
  const objects = [join(scratch, 'codec.o'), join(scratch, 'wasm-rt-impl.o')];
  execFileSync(gcc, [
    '-O2',
    '-I',
    scratch,
    '-I',
    runtime,
    '-c',
    join(scratch, 'codec.c'),
    '-o',
    objects[0] ?? '',
  ]);
  execFileSync(gcc, ['-O2', '-I', runtime, '-c', join(runtime, 'wasm-rt-impl.c'), '-o', objects[1] ?? '']);
  for (const [out, sources] of [
    [binary, harness],
    [telemetryBinary, telemetry],
  ] as const)
    execFileSync(gcc, ['-O2', '-I', scratch, '-I', runtime, '-o', out, ...sources, ...objects, '-lm']);
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const harnessOn = (dir: string) => spawnSync(binary, [dir], { encoding: 'utf8' });

describe('the codec in C (wasm2c + gcc)', () => {
  it('passes every vector of every file in tests/vectors', () => {
    const expected =
      crc.length +
      frames.built.length +
      frames.rejected.length +
      fields.valid.length +
      fields.rejected.length +
      passwords.valid.length +
      passwords.rejected.length +
      firmwareVectors.sha256.length +
      firmwareVectors.images.valid.length +
      firmwareVectors.images.rejected.length +
      2; // the command line's example, encoded and decoded
    const run = harnessOn(vectorsDir);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split('\n').at(-1)).toBe(`${expected} vectors, 0 failed`);
    for (const file of readdirSync(vectorsDir).filter((f) => f.endsWith('.json'))) {
      expect(run.stdout).toContain(file);
    }
  });

  it('fails and names the vector when a vector is wrong', () => {
    const changed = join(scratch, 'changed');
    cpSync(vectorsDir, changed, { recursive: true });
    const passwordsFile = join(changed, 'passwords.json');
    writeFileSync(passwordsFile, readFileSync(passwordsFile, 'utf8').replace('115, 101, 99', '115, 101, 98'));
    const run = harnessOn(changed);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('FAIL passwords.json: "secret"');
    expect(run.stdout).toContain('passwords.json: 6 vectors, 1 failed');
  });

  it('says which file it cannot read, exit 2', () => {
    const run = harnessOn(join(scratch, 'nowhere'));
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`codec-vectors: cannot read ${join(scratch, 'nowhere')}/crc.json\n`);
  });

  it('is warning-free C11', () => {
    const run = spawnSync(
      gcc,
      ['-std=c11', '-fsyntax-only', '-Wall', '-Wextra', '-Werror', '-I', scratch, ...harness, ...telemetry],
      {
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('builds a telemetry message in either form, byte for byte as the service reads it', async () => {
    const codec = await loadCodec();
    const frame = Uint8Array.from(telemetryFrame(codec, bundledConfig('hybrid5k'), Date.UTC(2026, 2, 4, 12)));
    const payload = Buffer.from(frame.subarray(1, frame.length - 2)).toString('hex');
    const run = (form: string, seq: string) =>
      spawnSync(telemetryBinary, [form, seq, String(frame.length), payload]);
    const json = run('json', '4294967295');
    expect(json.status).toBe(0);
    expect(json.stdout.toString()).toBe(
      `${JSON.stringify({ type: 'telemetry', seq: 4294967295, data: [...frame] })}\n`,
    );
    const binaryForm = run('binary', '7');
    expect(binaryForm.status).toBe(0);
    expect([...binaryForm.stdout]).toEqual([...telemetryMessage(7, frame)]);
    const bad = run('json', '4294967296');
    expect(bad.status).toBe(2);
    expect(bad.stderr.toString()).toBe('codec-telemetry: seq is a whole number 0–4294967295\n');
  });
});
