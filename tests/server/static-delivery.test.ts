import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../../server/auth/signing-keys.ts';
import { createServer, type FleetServer } from '../../server/create-server.ts';
import { parseEnv } from '../../server/env.ts';
import { migratedStart } from './migrated-database.ts';

const dist = '.tmp/test-static-dist';
const PAGE = `<!doctype html><html><head><title>Fleet Manager</title></head><body>${'<p>shell</p>'.repeat(200)}</body></html>`;
const SCRIPT = `export const answer = ${JSON.stringify('x'.repeat(4000))};`;

/** A built app as Vite and the precompress step leave it: files with .br and .gz copies beside them. */
function writeBuild() {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(join(dist, 'assets'), { recursive: true });
  const withCopies = (name: string, body: string) => {
    writeFileSync(join(dist, name), body);
    writeFileSync(join(dist, `${name}.br`), brotliCompressSync(body));
    writeFileSync(join(dist, `${name}.gz`), gzipSync(body));
  };
  withCopies('index.html', PAGE);
  withCopies('assets/index-AbC123.js', SCRIPT);
  withCopies('sw.js', 'self.addEventListener("fetch", () => {});'.repeat(50));
  writeFileSync(join(dist, 'assets/index-AbC123.js.map'), '{"version":3}');
  writeFileSync(join(dist, 'assets/plain-XyZ789.css'), 'body{margin:0}');
  writeFileSync(join(dist, 'devices-list.json'), '{"listVersion":1,"devicesList":{}}');
  writeFileSync(join(dist, '.env'), 'SECRET=1');
}

let server: FleetServer;
let withMaps: FleetServer;
async function start(env: Record<string, string> = {}) {
  return createServer({
    env: parseEnv({ DATA_DIR: '.tmp/test-data', ...env }),
    database: { pgliteDir: 'memory://', from: migratedStart() },
    keys: { config: (await generateSigningKey()).key, monitoring: (await generateSigningKey()).key },
    seed: false,
    distDir: dist,
    publicDir: 'public',
  });
}
beforeAll(async () => {
  writeBuild();
  server = await start();
  withMaps = await start({ MAPS_API_KEY: 'maps-key' });
});
afterAll(async () => {
  await server?.close();
  await withMaps?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}, app = server) =>
  app.app.request(path, { headers });
const bytes = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe('content negotiation of the built files', () => {
  it('sends the brotli copy to a browser that accepts brotli, and says the answer varies by encoding', async () => {
    const response = await get('/assets/index-AbC123.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Encoding')).toBe('br');
    expect(response.headers.get('Vary')).toBe('Accept-Encoding');
    expect(response.headers.get('Content-Type')).toMatch(/^text\/javascript/);
    expect(brotliDecompressSync(await bytes(response)).toString()).toBe(SCRIPT);
  });

  it('sends gzip where brotli is not accepted or is refused with q=0', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip']) {
      const response = await get('/assets/index-AbC123.js', { 'Accept-Encoding': accept });
      expect(response.headers.get('Content-Encoding')).toBe('gzip');
      expect(gunzipSync(await bytes(response)).toString()).toBe(SCRIPT);
    }
  });

  it('follows the client’s stated preference between brotli and gzip', async () => {
    const response = await get('/assets/index-AbC123.js', { 'Accept-Encoding': 'br;q=0.5, gzip;q=0.9' });
    expect(response.headers.get('Content-Encoding')).toBe('gzip');
  });

  it('sends the file itself to a client that accepts no coding, still with Vary', async () => {
    const response = await get('/assets/index-AbC123.js');
    expect(response.headers.get('Content-Encoding')).toBeNull();
    expect(response.headers.get('Vary')).toBe('Accept-Encoding');
    expect(await response.text()).toBe(SCRIPT);
  });

  it('sends a file without copies as it is, whatever the client accepts', async () => {
    const response = await get('/assets/plain-XyZ789.css', { 'Accept-Encoding': 'br, gzip' });
    expect(response.headers.get('Content-Encoding')).toBeNull();
    expect(await response.text()).toBe('body{margin:0}');
  });

  it('negotiates the page served for a client route too', async () => {
    const response = await get('/sites-list', { 'Accept-Encoding': 'br' });
    expect(response.headers.get('Content-Encoding')).toBe('br');
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(brotliDecompressSync(await bytes(response)).toString()).toBe(PAGE);
  });
});

describe('caching', () => {
  it('marks hashed assets immutable for a year', async () => {
    const response = await get('/assets/index-AbC123.js', { 'Accept-Encoding': 'br' });
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
  });

  it('makes the page, the service worker and the bundled lists revalidate on every use', async () => {
    for (const path of ['/', '/index.html', '/landing', '/sw.js', '/devices-list.json']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('Cache-Control'), path).toBe('no-cache');
      expect(response.headers.get('ETag'), path).toMatch(/^"[^"]+"$/);
    }
  });

  it('answers a revisit with the same ETag with 304 and no body', async () => {
    const first = await get('/', { 'Accept-Encoding': 'br' });
    const etag = first.headers.get('ETag') ?? '';
    const again = await get('/', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('ETag')).toBe(etag);
    expect(again.headers.get('Cache-Control')).toBe('no-cache');
  });

  it('gives each encoding its own ETag, so a gzip copy never validates a brotli one', async () => {
    const br = (await get('/', { 'Accept-Encoding': 'br' })).headers.get('ETag') ?? '';
    const gzip = (await get('/', { 'Accept-Encoding': 'gzip' })).headers.get('ETag') ?? '';
    expect(br).not.toBe(gzip);
    expect((await get('/', { 'Accept-Encoding': 'gzip', 'If-None-Match': br })).status).toBe(200);
  });

  it('revalidates /app-config.json with an ETag and no-cache', async () => {
    const first = await get('/app-config.json');
    expect(first.headers.get('Cache-Control')).toBe('no-cache');
    const etag = first.headers.get('ETag') ?? '';
    expect(etag).not.toBe('');
    expect((await get('/app-config.json', { 'If-None-Match': etag })).status).toBe(304);
  });
});

describe('what is never served', () => {
  it('refuses source maps, the compressed copies by name, and hidden files', async () => {
    for (const path of [
      '/assets/index-AbC123.js.map',
      '/assets/index-AbC123.js.br',
      '/index.html.gz',
      '/.env',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('SECRET');
    }
  });

  it('answers a missing hashed asset with 404, not the page, so a stale chunk fails loudly', async () => {
    const response = await get('/assets/index-Old999.js');
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('<title>Fleet Manager</title>');
  });

  it('does not leave the build folder through encoded dots', async () => {
    const response = await get('/%2e%2e/package.json');
    expect(await response.text()).not.toContain('"name": "fleet-manager"');
  });
});

describe('large JSON answers', () => {
  const linkAuth = `Basic ${Buffer.from('fleet:dev-link-key').toString('base64')}`;

  it('compresses the catalogue for a client that accepts brotli, and still parses as the list', async () => {
    const plain = await get('/config/devices-list', { Authorization: linkAuth });
    const body = await plain.text();
    expect(body.length).toBeGreaterThan(1024);
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    expect(plain.headers.get('Vary')).toMatch(/Accept-Encoding/);
    const response = await get('/config/devices-list', {
      Authorization: linkAuth,
      'Accept-Encoding': 'br, gzip',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Encoding')).toBe('br');
    const decoded = brotliDecompressSync(await bytes(response)).toString();
    expect(JSON.parse(decoded)).toEqual(JSON.parse(body));
    expect(Number(response.headers.get('Content-Length'))).toBeLessThan(body.length);
  });

  it('leaves small JSON answers as they are', async () => {
    // Without an api-key the service refuses: a short {message, code} body.
    const response = await get('/config/no-such-call', { 'Accept-Encoding': 'br, gzip' });
    expect(response.status).toBe(401);
    expect(response.headers.get('Content-Encoding')).toBeNull();
    expect(((await response.json()) as { code: string }).code).toBeTypeOf('string');
  });
});

describe('security headers', () => {
  const policyOf = (response: Response) => response.headers.get('Content-Security-Policy') ?? '';
  const directive = (policy: string, name: string) =>
    policy
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${name} `)) ?? '';

  it('puts them on every kind of answer: page, asset, 404, service answer and service error', async () => {
    const answers = [
      await get('/'),
      await get('/assets/index-AbC123.js'),
      await get('/assets/missing-1.js'),
      await get('/app-config.json'),
      await get('/config/no-such-call'),
      await server.app.request('/config/auth/v2/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'api-key': 'dev-api-key' },
        body: '{not json',
      }),
      await get('/monitoring/fleet/anything'),
    ];
    for (const response of answers) {
      const where = `${response.status} ${response.url}`;
      expect(response.headers.get('X-Content-Type-Options'), where).toBe('nosniff');
      expect(response.headers.get('Referrer-Policy'), where).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('Permissions-Policy'), where).toContain('bluetooth=(self)');
      expect(response.headers.get('X-Frame-Options'), where).toBe('DENY');
      expect(directive(policyOf(response), 'frame-ancestors'), where).toBe("frame-ancestors 'none'");
    }
  });

  it("gives the app a policy whose scripts are this origin's files only: no inline script, no eval", async () => {
    const scripts = directive(policyOf(await get('/sites-list')), 'script-src');
    expect(scripts).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toMatch(/'unsafe-eval'/);
  });

  it('lets service answers load nothing at all', async () => {
    expect(directive(policyOf(await get('/config/no-such-call')), 'default-src')).toBe("default-src 'none'");
  });

  it('adds the Google Maps origins only when a maps key is configured', async () => {
    const without = policyOf(await get('/create-site'));
    expect(without).not.toContain('googleapis.com');
    const policy = policyOf(await get('/create-site', {}, withMaps));
    expect(directive(policy, 'script-src')).toBe(
      "script-src 'self' 'wasm-unsafe-eval' https://maps.googleapis.com",
    );
    expect(directive(policy, 'img-src')).toContain('https://maps.gstatic.com');
    expect(directive(policy, 'font-src')).toContain('https://fonts.gstatic.com');
    expect(directive(policy, 'script-src')).not.toContain("'unsafe-inline'");
  });
});
