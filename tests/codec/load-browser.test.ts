import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CODEC_WASM_PATH } from '../../src/codec/load-node.ts';
import { ascii } from './implementations.ts';

const wasmBytes = readFileSync(CODEC_WASM_PATH);

/** A fetch that serves build/codec.wasm for any URL, with the given content type or status. */
function serveWasm(contentType: string, status = 200) {
  return vi.fn(
    async (_url: string) =>
      new Response(status === 200 ? wasmBytes : null, { status, headers: { 'content-type': contentType } }),
  );
}

// Each test gets a fresh module, since loadCodec memoizes its instance.
async function freshLoader() {
  vi.resetModules();
  return (await import('../../src/codec/load-browser.ts')).loadCodec;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the browser loader', () => {
  it('fetches the URL Vite gives the module and compiles it as a stream', async () => {
    const fetch = serveWasm('application/wasm');
    vi.stubGlobal('fetch', fetch);
    const codec = await (await freshLoader())();
    expect(codec.crc16(ascii('123456789'))).toBe(0x4b37);
    expect(String(fetch.mock.calls[0]?.[0])).toMatch(/codec\.wasm/);
  });

  it('names the URL and says to rebuild when the served bytes are not WebAssembly', async () => {
    vi.stubGlobal('fetch', async () => new Response('<!doctype html>', { status: 200 }));
    await expect((await freshLoader())()).rejects.toThrow(
      expect.objectContaining({
        name: 'CodecLoadError',
        message: expect.stringMatching(/codec\.wasm.*: not a valid WebAssembly module .*npm run build:wasm$/),
      }),
    );
  });

  it('still loads when the server sends another content type', async () => {
    vi.stubGlobal('fetch', serveWasm('application/octet-stream'));
    const codec = await (await freshLoader())();
    expect(codec.buildFrame(1, 8, new Uint8Array([3, 0, 0, 0, 10])).slice(6)).toEqual(
      new Uint8Array([0xc5, 0xcd]),
    );
  });

  it('names the HTTP status when the module cannot be fetched, and retries on the next call', async () => {
    vi.stubGlobal('fetch', serveWasm('text/html', 404));
    const loadCodec = await freshLoader();
    await expect(loadCodec()).rejects.toThrow(
      expect.objectContaining({
        name: 'CodecLoadError',
        message: expect.stringMatching(/codec\.wasm.*: cannot be fetched: HTTP 404$/),
      }),
    );
    vi.stubGlobal('fetch', serveWasm('application/wasm'));
    await expect(loadCodec()).resolves.toHaveProperty('crc16');
  });
});
