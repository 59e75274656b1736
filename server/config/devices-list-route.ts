import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { type DevicesList, devicesListSchema } from '../../contracts/devices-list.ts';
import { safeEqual } from '../auth/secrets.ts';
import { ApiError } from '../http/errors.ts';

/**
 * `GET /devices-list`: Basic credentials equal to LINK_KEY (constant-time compare). The
 * `list-version` header (default -1) is the version the caller holds. When it is the current
 * version the answer is 304 "unchanged" with no body; otherwise 200 with the full
 * `{listVersion, devicesList}` (validated by the shared contract). Both carry the served
 * version in the `list-version` response header.
 */
export function devicesListRoute(linkKey: string, file: string): Hono {
  const app = new Hono();
  const expected = `Basic ${Buffer.from(linkKey).toString('base64')}`;
  app.get('/devices-list', async (c) => {
    if (!safeEqual(c.req.header('authorization') ?? '', expected)) {
      c.header('WWW-Authenticate', 'Basic realm="devices-list"');
      throw new ApiError(
        401,
        'link_key_invalid',
        'Basic credentials for the devices list are missing or wrong',
      );
    }
    const version = c.req.header('list-version') ?? '-1';
    if (!/^-?\d{1,9}$/.test(version)) {
      throw new ApiError(
        400,
        'invalid_input',
        'list-version: a whole number, -1 when none is held',
        'list-version',
      );
    }
    let list: DevicesList;
    try {
      list = devicesListSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    } catch (error) {
      console.error('[devices-list]', error);
      throw new ApiError(503, 'devices_list_unavailable', 'The devices list is not available');
    }
    c.header('list-version', String(list.listVersion));
    c.header('cache-control', 'no-store');
    if (Number(version) === list.listVersion) return c.body(null, 304);
    return c.json({ listVersion: list.listVersion, devicesList: list.devicesList });
  });
  return app;
}
