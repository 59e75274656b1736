import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import type { Context, Hono } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { pageFileFor, SHELL_PAGE } from '../contracts/prerendered-pages.ts';
import { type Coding, preferredCodings } from './http/accept-encoding.ts';

/** Vite names every file under /assets/ by its content hash: a changed file has a new name. */
const HASHED_PREFIX = '/assets/';
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Build-time copies beside each file (see `precompress` in vite.config.ts). */
const SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };

const isService = (path: string) => /^\/(config|monitoring)(\/|$)/.test(path);

/** The file a URL path names inside `distDir`, or undefined for anything that leaves it or is hidden. */
function fileFor(distDir: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const relative = normalize(decoded).replace(/^[/\\]+/, '');
  if (relative.split(sep).some((segment) => segment.startsWith('.'))) return undefined;
  // Source maps stay on the build machine, and the compressed copies are reached by negotiation.
  if (/\.(map|br|gz)$/.test(relative)) return undefined;
  return join(distDir, relative);
}

async function fileStat(path: string): Promise<Stats | undefined> {
  try {
    const found = await stat(path);
    return found.isFile() ? found : undefined;
  } catch {
    return undefined;
  }
}

const etagOf = (found: Stats, encoding: string) =>
  `"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}-${encoding}"`;

function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * Answer one file: the best build-time compressed copy the client accepts, an ETag per copy (a
 * matching If-None-Match gets a 304), and the caching rule for its name.
 */
async function sendFile(c: Context, path: string, found: Stats, cacheControl: string): Promise<Response> {
  let served = { path, stat: found, encoding: 'identity' as Coding | 'identity' };
  for (const coding of preferredCodings(c.req.header('Accept-Encoding'))) {
    const copy = await fileStat(path + SUFFIX[coding]);
    if (copy) {
      served = { path: path + SUFFIX[coding], stat: copy, encoding: coding };
      break;
    }
  }
  const etag = etagOf(served.stat, served.encoding);
  const headers: Record<string, string> = {
    'Cache-Control': cacheControl,
    ETag: etag,
    Vary: 'Accept-Encoding',
  };
  if (matchesIfNoneMatch(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers);
  headers['Content-Type'] = getMimeType(path) ?? 'application/octet-stream';
  headers['Content-Length'] = String(served.stat.size);
  if (served.encoding !== 'identity') headers['Content-Encoding'] = served.encoding;
  if (c.req.method === 'HEAD') return c.body(null, 200, headers);
  return c.body(new Uint8Array(await readFile(served.path)), 200, headers);
}

/**
 * The page for a client route: the page the build prerendered for it (`/login` gets `login.html`,
 * a guarded path the shell in `index.html`), or `index.html` when this build has none.
 */
async function pageFor(distDir: string, path: string): Promise<{ file: string; stat: Stats } | undefined> {
  for (const name of new Set([pageFileFor(path), SHELL_PAGE])) {
    const file = join(distDir, name);
    const found = await fileStat(file);
    if (found) return { file, stat: found };
  }
  return undefined;
}

/**
 * Serve the built app from `distDir`: hashed files under /assets/ cached for a year, everything
 * else (the pages, the service worker, the bundled lists) revalidated with its ETag on each use;
 * for any other GET outside the services its page (see `pageFor`), so client routes such as
 * /sites-list load on a fresh visit. A missing /assets/ file is a 404, never a page, so a stale
 * chunk request fails loudly instead of parsing HTML as JavaScript.
 */
export function serveApp(app: Hono, distDir: string): void {
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    const path = c.req.path;
    if (isService(path)) return next();
    const file = fileFor(distDir, path);
    const found = file ? await fileStat(file) : undefined;
    if (file && found) {
      return sendFile(c, file, found, path.startsWith(HASHED_PREFIX) ? IMMUTABLE : REVALIDATE);
    }
    if (path.startsWith(HASHED_PREFIX) || !file) return c.text('Not found', 404);
    const page = await pageFor(distDir, path);
    if (!page) {
      return c.text('The app is not built yet: run `npm run build` (npm start does it for you).', 503);
    }
    return sendFile(c, page.file, page.stat, REVALIDATE);
  });
}
