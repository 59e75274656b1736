// The packed codec's browser entry in Chromium: a page imports browser.js from where the package is
// served and calls loadCodec() with no URL, so the module must come from beside browser.js.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packCodec } from '../../src/codec/package/pack.ts';
import { crc, frames } from '../vectors/describe-vectors.ts';
import { launchChromium } from './browser.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
};

const scratch = mkdtempSync(join(tmpdir(), 'codec-package-e2e-'));
const served = join(scratch, 'package');
let server: Server;
let origin: string;
let browser: Browser;
const requested: string[] = [];

beforeAll(async () => {
  await packCodec(served);
  // The package folder as a static site, with one page that loads nothing by itself.
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    requested.push(path);
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><html lang="en"><title>codec</title></html>');
      return;
    }
    const file = normalize(join(served, path));
    try {
      if (!file.startsWith(`${served}/`)) throw new Error('outside the package');
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the packed codec in Chromium', () => {
  it('loads codec.wasm from beside browser.js and computes the CRC and frame vectors', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    // Passed as text: the test's own transform would rewrite an import() inside a function.
    const results = await page.evaluate(`(async () => {
      const hexOf = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      const bytesOf = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
      const { loadCodec } = await import('/browser.js');
      const codec = await loadCodec();
      return {
        crc: ${JSON.stringify(crc.map((v) => v.input))}.map((input) =>
          codec.crc16(bytesOf(input)).toString(16).padStart(4, '0')),
        frames: ${JSON.stringify(frames.built)}.map((v) =>
          hexOf(codec.buildFrame(v.opcode, v.size, bytesOf(v.payload)))),
      };
    })()`);
    expect(results).toEqual({ crc: crc.map((v) => v.crc), frames: frames.built.map((v) => v.frame) });
    expect(requested).toContain('/codec.wasm');
    await page.close();
  });
});
