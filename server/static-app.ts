import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Hono, MiddlewareHandler } from 'hono';
import { handleNotFound } from './http/errors.ts';

type ServeStatic = (options: { root: string }) => MiddlewareHandler;

/**
 * Serve the built app: files from `distDir`, and `index.html` for any other GET outside the
 * services, so client routes such as /sites-list load on a fresh visit.
 */
export function serveApp(app: Hono, distDir: string, serveStatic: ServeStatic): void {
  const isService = (path: string) => /^\/(config|monitoring)(\/|$)/.test(path);
  const files = serveStatic({ root: distDir });
  app.use('*', async (c, next) => (isService(c.req.path) ? next() : files(c, next)));
  app.get('*', async (c) => {
    if (isService(c.req.path)) return handleNotFound(c);
    const index = join(distDir, 'index.html');
    if (!existsSync(index)) {
      return c.text('The app is not built yet: run `npm run build` (npm start does it for you).', 503);
    }
    return c.html(await readFile(index, 'utf8'));
  });
}
