import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { preferredCodings, varyOnEncoding } from './accept-encoding.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this a JSON answer goes as it is: the coding would cost more than it saves. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Compress large JSON answers (pages of sites and devices, the devices list) with brotli or
 * gzip, whichever the client prefers. Quality 5 brotli: close to gzip's speed, smaller output;
 * the top qualities are for build-time copies, not per-request work.
 */
export function compressJson(threshold = COMPRESS_THRESHOLD): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (c.req.method === 'HEAD' || !res.body || res.headers.has('Content-Encoding')) return;
    if (!/^application\/([\w.-]+\+)?json/i.test(res.headers.get('Content-Type') ?? '')) return;
    const body = Buffer.from(await res.clone().arrayBuffer());
    if (body.length < threshold) return;
    const vary = varyOnEncoding(res.headers.get('Vary'));
    const coding = preferredCodings(c.req.header('Accept-Encoding'))[0];
    if (!coding) {
      res.headers.set('Vary', vary);
      return;
    }
    const compressed =
      coding === 'br'
        ? await brotli(body, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
          })
        : await gzipAsync(body, { level: 6 });
    const etag = res.headers.get('ETag');
    c.res = new Response(new Uint8Array(compressed), { status: res.status, headers: res.headers });
    // The context copies the old headers onto the new answer: set the coding's own afterwards.
    c.res.headers.set('Content-Encoding', coding);
    c.res.headers.set('Content-Length', String(compressed.length));
    c.res.headers.set('Vary', vary);
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
  };
}
