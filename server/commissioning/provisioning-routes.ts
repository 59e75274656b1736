import { Hono } from 'hono';
import { z } from 'zod';
import { type ProvisioningAnswer, provisioningSchema } from '../../contracts/claims.ts';
import { installSerialSchema } from '../../contracts/installs.ts';
import { requireConfiguringRight } from '../access/device-access.ts';
import { hitRateLimit } from '../auth/rate-limit.ts';
import type { ServerContext } from '../context.ts';
import { type Env, publicAppUrl } from '../env.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { limitChecks } from '../limits/request-limits.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { issueDeviceSecret } from '../service-comms/device-secrets.ts';
import { DEVICE_SOCKET_PATH } from '../service-comms/service-comms.ts';

/**
 * The address devices connect to: the device socket at `PUBLIC_APP_URL` (this machine's port
 * without it), over `wss:` where the app is served over HTTPS.
 * @example deviceSocketUrl({ PUBLIC_APP_URL: 'https://fleet.example', PORT: 8080 }) // 'wss://fleet.example/config/service-comms/devices/ws'
 */
export function deviceSocketUrl(env: Pick<Env, 'PUBLIC_APP_URL' | 'PORT'>): string {
  const url = new URL(DEVICE_SOCKET_PATH, publicAppUrl(env));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * Provisioning a device at commissioning, mounted at `/fleet`: a new service-comms secret and the
 * service's address, for the app to write to the device over Bluetooth. Nobody reads or copies the
 * secret: it goes from this answer to the device.
 */
export function provisioningRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  app.post(
    '/devices/:serial/provisioning',
    describeRoute({
      summary:
        "A new service-comms secret and the service's address, to be written to the device over Bluetooth",
      limits: ['provisionPerUser'],
      tag: 'installs',
      responses: {
        201: {
          description: 'The secret (the old one stops working) and the address',
          schema: provisioningSchema,
        },
        403: { description: 'The caller sees the device without the installer or configurator role' },
        404: { description: 'No such device, or one the caller cannot see' },
        429: { description: 'Too many secrets issued by this user (rate_limited)' },
      },
    }),
    validate('param', z.object({ serial: installSerialSchema })),
    async (c) => {
      const principal = c.get('principal');
      const { serial } = c.req.valid('param');
      const device = await requireConfiguringRight(ctx.db, principal, serial, 'Provisioning a device');
      await hitRateLimit(ctx, limitChecks('provision', { provisionPerUser: principal.id }));
      const secret = await issueDeviceSecret(ctx.db, device.id);
      // A socket opened with the old secret is closed: the device comes back with the new one.
      await ctx.comms.dropDevice(serial);
      c.header('Cache-Control', 'no-store');
      const body: ProvisioningAnswer = { serialNumber: serial, secret, address: deviceSocketUrl(ctx.env) };
      return c.json(body, 201);
    },
  );
  return app;
}
