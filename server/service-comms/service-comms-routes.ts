import { Hono } from 'hono';
import {
  commandLogQuerySchema,
  type DeviceAnswer,
  type DeviceSecret,
  deviceCommandSchema,
  type OnlineDevices,
  onlineDevicesQuerySchema,
  serviceCommsSerialSchema,
} from '../../contracts/service-comms.ts';
import { likePattern, siteVisible } from '../access/scope.ts';
import { isCompanyAddress } from '../access/user-rights.ts';
import type { Principal } from '../auth/access-tokens.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { readBody, readInput } from '../http/validate.ts';
import { logExchange, readCommandLog } from './command-log.ts';
import { issueDeviceSecret } from './device-secrets.ts';

/** Site roles that may send a device commands (besides company staff). */
const COMMAND_ROLES = ['configurator', 'installer'];

/** Company staff: the admin role, or an address in the company domain (which only an admin gives). */
export function isCompanyStaff(ctx: ServerContext, principal: Principal): boolean {
  return principal.role === 'admin' || isCompanyAddress(principal.email, ctx.env.COMPANY_DOMAIN);
}

/**
 * The device a caller may send commands to and read the log of: company staff, or a user whose
 * switched-on access to the device's site holds the `configurator` or `installer` role.
 * @throws {ApiError} 404 unknown serial (or a site the caller cannot see), 403 a role that may not.
 */
async function requireCommandRight(ctx: ServerContext, principal: Principal, serial: string) {
  const device = await ctx.db
    .selectFrom('devices')
    .leftJoin('site_access', (join) =>
      join.onRef('site_access.site_id', '=', 'devices.site_id').on('site_access.user_id', '=', principal.id),
    )
    .select(['devices.id', 'devices.serial', 'site_access.roles', 'site_access.access'])
    .where('devices.serial', '=', serial)
    .executeTakeFirst();
  if (!device) throw notFound('Device');
  const found = { id: device.id, serial: device.serial };
  if (isCompanyStaff(ctx, principal)) return found;
  // A device on a site the caller cannot see is as unknown to them as one that does not exist.
  if (!device.access) throw notFound('Device');
  if (!(device.roles ?? []).some((role) => COMMAND_ROLES.includes(role)))
    throw forbidden(
      'Commands to this device need the configurator or installer role on its site',
      'service_comms_forbidden',
    );
  return found;
}

/** Devices online: commands to connected devices, their log, who is online, device secrets. */
export function serviceCommsRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const comms = ctx.comms;
  const timeout = ctx.env.SERVICE_COMMS_TIMEOUT_MS;

  app.post('/service-comms/command', async (c) => {
    const { serialNumber, data } = await readBody(c, deviceCommandSchema);
    const sender = c.get('principal');
    const device = await requireCommandRight(ctx, sender, serialNumber);
    const sentAt = new Date();
    const delivery = await comms.deliver(serialNumber, data);
    await logExchange(ctx.db, { device, sender, command: data, delivery, sentAt });
    if (delivery.ok) return c.json({ serialNumber, data: delivery.data } satisfies DeviceAnswer);
    if (delivery.code === 'device_offline')
      throw new ApiError(409, 'device_offline', `Device ${serialNumber} is not online`);
    throw new ApiError(504, 'device_timeout', `Device ${serialNumber} did not answer within ${timeout} ms`);
  });

  app.get('/service-comms/devices/online', async (c) => {
    const { q } = readInput({ q: c.req.query('q') || undefined }, onlineDevicesQuerySchema, 'q');
    const viewer = c.get('principal');
    let query = ctx.db
      .selectFrom('device_presence')
      .innerJoin('devices', 'devices.id', 'device_presence.device_id')
      .innerJoin('sites', 'sites.id', 'devices.site_id')
      .select(['device_presence.serial', 'devices.model_id', 'device_presence.connected_at'])
      .where(comms.presence.onlineCondition());
    if (!isCompanyStaff(ctx, viewer)) query = query.where(siteVisible(viewer));
    if (q) query = query.where('device_presence.serial', 'ilike', likePattern(q));
    const rows = await query.orderBy('device_presence.serial').limit(1000).execute();
    const body: OnlineDevices = {
      devices: rows.map((row) => ({
        serialNumber: row.serial,
        modelId: row.model_id,
        connectedAt: new Date(row.connected_at).toISOString(),
      })),
    };
    return c.json(body);
  });

  app.get('/service-comms/devices/:serial/log', async (c) => {
    const serial = readInput(c.req.param('serial'), serviceCommsSerialSchema, 'serial');
    const { limit } = readInput({ limit: c.req.query('limit') }, commandLogQuerySchema, 'limit');
    const device = await requireCommandRight(ctx, c.get('principal'), serial);
    return c.json({ entries: await readCommandLog(ctx.db, device.id, limit) });
  });

  app.post('/service-comms/devices/:serial/secret', async (c) => {
    const serial = readInput(c.req.param('serial'), serviceCommsSerialSchema, 'serial');
    if (c.get('principal').role !== 'admin')
      throw forbidden('Only an admin issues device secrets', 'admin_only');
    const device = await ctx.db
      .selectFrom('devices')
      .select('id')
      .where('serial', '=', serial)
      .executeTakeFirst();
    if (!device) throw notFound('Device');
    const secret = await issueDeviceSecret(ctx.db, device.id);
    // The old secret stops passing at once, and a socket opened with it is closed.
    await comms.dropDevice(serial);
    c.header('Cache-Control', 'no-store');
    return c.json({ serialNumber: serial, secret } satisfies DeviceSecret, 201);
  });
  return app;
}
