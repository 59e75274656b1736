import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEC_WASM_PATH, loadCodecFile } from '../../src/codec/load-node.ts';
import { ascii } from './implementations.ts';

const scratch = mkdtempSync(join(tmpdir(), 'codec-load-'));
const file = (name: string, bytes: Uint8Array | string): string => {
  const path = join(scratch, name);
  writeFileSync(path, bytes);
  return path;
};

/** The smallest valid WebAssembly module: magic number and version, no exports at all. */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

describe('the Node loader on a file', () => {
  it('loads the built module', async () => {
    const codec = await loadCodecFile(CODEC_WASM_PATH);
    expect(codec.crc16(ascii('123456789'))).toBe(0x4b37);
  });

  it('names a missing file and says how to build it', async () => {
    const path = join(scratch, 'missing.wasm');
    await expect(loadCodecFile(path)).rejects.toThrow(
      expect.objectContaining({
        name: 'CodecLoadError',
        message: `${path}: cannot be read (ENOENT); run npm run build:wasm`,
      }),
    );
  });

  it('names a file that is not WebAssembly instead of failing with the engine message alone', async () => {
    const path = file('broken.wasm', 'this is not wasm');
    await expect(loadCodecFile(path)).rejects.toThrow(
      expect.objectContaining({
        name: 'CodecLoadError',
        source: path,
        message: expect.stringMatching(
          /: not a valid WebAssembly module \(.+\); rebuild it with npm run build:wasm$/,
        ),
      }),
    );
  });

  it('names every export a stale module lacks', async () => {
    const path = file('stale.wasm', EMPTY_MODULE);
    await expect(loadCodecFile(path)).rejects.toThrow(
      expect.objectContaining({
        name: 'CodecLoadError',
        message: expect.stringContaining(`${path}: the module lacks the exports memory, crc16, errorIndex`),
      }),
    );
  });
});
