import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { z } from 'zod';
import { type Catalogue, catalogueSchema } from '../../contracts/catalogue.ts';
import { ApiError } from '../http/errors.ts';
import { requireBasic } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';

/** The version the caller holds; -1 when none. */
const listVersionHeaders = z.object({
  'list-version': z
    .string()
    .regex(/^-?\d{1,9}$/, 'a whole number, -1 when none is held')
    .default('-1'),
});

/**
 * `GET /devices-list`: Basic credentials equal to LINK_KEY (constant-time compare). The
 * `list-version` header (default -1) is the version the caller holds. When it is the current
 * version the answer is 304 "unchanged" with no body; otherwise 200 with the full
 * `{listVersion, devicesList}` (validated by the shared contract). Both carry the served
 * version in the `list-version` response header.
 */
export function catalogueRoute(linkKey: string, file: string): Hono {
  const app = new Hono();
  app.get(
    '/',
    describeRoute({
      summary: 'The devices list (Basic credentials of LINK_KEY)',
      tag: 'devices list',
      responses: {
        200: {
          description: 'The whole list; its version also in the list-version header',
          schema: catalogueSchema,
        },
        503: { description: 'The list is missing or invalid' },
      },
    }),
    requireBasic(linkKey, 'devices-list'),
    validate('header', listVersionHeaders),
    async (c) => {
      const version = c.req.valid('header')['list-version'];
      let list: Catalogue;
      try {
        list = catalogueSchema.parse(JSON.parse(await readFile(file, 'utf8')));
      } catch (error) {
        console.error('[devices-list]', error);
        throw new ApiError(503, 'devices_list_unavailable', 'The devices list is not available');
      }
      c.header('list-version', String(list.listVersion));
      c.header('cache-control', 'no-store');
      if (Number(version) === list.listVersion) return c.body(null, 304);
      return c.json({ listVersion: list.listVersion, devicesList: list.devicesList });
    },
  );
  return app;
}
