import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import { isStaff, mayCreateInstallers, maySendRawFrames } from '../../contracts/access-policy.ts';
import { isCompanyStaffEmail } from '../../contracts/company-staff.ts';
import {
  commandLogQuerySchema,
  commandLogSchema,
  type DeviceAnswer,
  type DeviceSecret,
  deviceAnswerSchema,
  deviceCommandSchema,
  deviceSecretSchema,
  type OnlineDevices,
  onlineDevicesQuerySchema,
  onlineDevicesSchema,
  STAFF_SENDER,
  serviceCommsSerialSchema,
} from '../../contracts/service-comms.ts';
import { type DeviceRights, deviceRights } from '../access/device-access.ts';
import { likePattern, siteVisible } from '../access/scope.ts';
import { hitRateLimit } from '../auth/rate-limit.ts';
import type { ServerContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import type { AuthVariables, Caller } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { limitChecks } from '../limits/request-limits.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { type CatalogueLookup, isCatalogueCommand } from './catalogue-commands.ts';
import { logExchange, readCommandLog } from './command-log.ts';
import { issueDeviceSecret } from './device-secrets.ts';

const serialParams = z.object({ serial: serviceCommsSerialSchema });

/**
 * The device a caller may send commands to and read the log of: one the caller may configure
 * (`mayConfigureOnSite`: company staff and admins any device).
 * @throws {ApiError} 404 unknown serial (or a site the caller cannot see), 403 a role that may not.
 */
async function requireCommandRight(ctx: ServerContext, principal: Caller, serial: string) {
  const rights = await deviceRights(ctx.db, principal, serial);
  if (!rights?.sees) throw notFound('Device');
  if (!rights.configures)
    throw forbidden(
      'Commands to this device need the configurator or installer role on its site',
      'service_comms_forbidden',
    );
  return rights;
}

/**
 * Raw frames are for company staff only. Anyone else who may configure the device sends only the
 * catalogue commands of its model: a whole frame of the model's write size whose opcode is one of
 * its commands.
 * @throws {ApiError} 403 `raw_frames_staff_only`.
 */
async function requireCatalogueCommand(
  catalogue: CatalogueLookup,
  principal: Caller,
  device: DeviceRights,
  frame: number[],
): Promise<void> {
  if (maySendRawFrames(principal)) return;
  const entry = await catalogue(device.modelId);
  if (entry && isCatalogueCommand(entry, frame)) return;
  const allowed = entry
    ? `: a frame of ${entry.write.bufferSize} bytes whose opcode is one of ${entry.commands
        .map((command) => `0x${command.opCode.toString(16).padStart(2, '0')}`)
        .join(', ')}`
    : '';
  throw forbidden(
    `Only company staff send raw frames; send one of the ${device.modelId}'s catalogue commands${allowed}`,
    'raw_frames_staff_only',
  );
}

/** Devices online: commands to connected devices, their log, who is online, device secrets. */
export function serviceCommsRoutes(
  ctx: ServerContext,
  catalogue: CatalogueLookup,
): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const comms = ctx.comms;
  const timeout = ctx.env.SERVICE_COMMS_TIMEOUT_MS;

  /** How often one may send is checked before the body is read. */
  const commandLimit = createMiddleware<{ Variables: AuthVariables }>(async (c, next) => {
    await hitRateLimit(
      ctx,
      limitChecks('command', {
        commandPerUser: c.get('principal').id,
        commandPerAddress: clientAddress(c, ctx.env.TRUST_PROXY),
      }),
    );
    await next();
  });

  app.post(
    '/service-comms/command',
    describeRoute({
      summary: 'Send a frame to an online device and answer its answer frame (no api-key)',
      limits: ['commandPerUser', 'commandPerAddress'],
      tag: 'devices online',
      example: { serialNumber: 'HX5K-24-000123', data: [1, 0, 0] },
      responses: {
        200: { description: "The device's answer frame", schema: deviceAnswerSchema },
        403: {
          description:
            'No configurator or installer role on the site (service_comms_forbidden), or a raw frame from someone who is not company staff (raw_frames_staff_only)',
        },
        429: { description: 'Too many commands from this user or address' },
        404: { description: 'No such device, or the caller may not see it' },
        409: { description: 'device_offline: the device is not connected (or went away mid-command)' },
        504: { description: 'device_timeout: the device did not answer in time' },
      },
    }),
    commandLimit,
    validate('json', deviceCommandSchema),
    async (c) => {
      const sender = c.get('principal');
      const { serialNumber, data } = c.req.valid('json');
      const device = await requireCommandRight(ctx, sender, serialNumber);
      await requireCatalogueCommand(catalogue, sender, device, data);
      const sentAt = new Date();
      const delivery = await comms.deliver(serialNumber, data);
      await logExchange(ctx.db, { device, sender, command: data, delivery, sentAt });
      if (delivery.ok) return c.json({ serialNumber, data: delivery.data } satisfies DeviceAnswer);
      if (delivery.code === 'device_offline')
        throw new ApiError(409, 'device_offline', `Device ${serialNumber} is not online`);
      throw new ApiError(504, 'device_timeout', `Device ${serialNumber} did not answer within ${timeout} ms`);
    },
  );

  app.get(
    '/service-comms/devices/online',
    describeRoute({
      summary: 'The devices the caller may see that are connected now (no api-key)',
      tag: 'devices online',
      responses: { 200: { description: 'Online devices by serial number', schema: onlineDevicesSchema } },
    }),
    validate('query', onlineDevicesQuerySchema),
    async (c) => {
      const { q } = c.req.valid('query');
      const viewer = c.get('principal');
      let query = ctx.db
        .selectFrom('device_presence')
        .innerJoin('devices', 'devices.id', 'device_presence.device_id')
        .innerJoin('sites', 'sites.id', 'devices.site_id')
        .select(['device_presence.serial', 'devices.model_id', 'device_presence.connected_at'])
        .where(comms.presence.onlineCondition());
      query = query.where(siteVisible(viewer));
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
    },
  );

  app.get(
    '/service-comms/devices/:serial/log',
    describeRoute({
      summary: "A device's commands and answers with who sent them, newest first (no api-key)",
      tag: 'devices online',
      responses: {
        200: {
          description:
            'Log entries; a reader who is not company staff sees a staff sender as "Company staff"',
          schema: commandLogSchema,
        },
        403: { description: 'Not company staff, and no configurator or installer role on the site' },
        404: { description: 'No such device, or the caller may not see it' },
      },
    }),
    validate('param', serialParams),
    validate('query', commandLogQuerySchema),
    async (c) => {
      const { serial } = c.req.valid('param');
      const { limit } = c.req.valid('query');
      const viewer = c.get('principal');
      const device = await requireCommandRight(ctx, viewer, serial);
      const entries = await readCommandLog(ctx.db, device.id, limit);
      // Staff send from their own addresses; whoever is not staff sees only that staff sent it.
      const shown = isStaff(viewer)
        ? entries
        : entries.map((entry) =>
            isCompanyStaffEmail(entry.userEmail, ctx.env.COMPANY_DOMAIN)
              ? { ...entry, userId: 0, userEmail: STAFF_SENDER }
              : entry,
          );
      return c.json({ entries: shown });
    },
  );

  app.post(
    '/service-comms/devices/:serial/secret',
    describeRoute({
      summary: "Issue (or rotate) a device's secret, answered once (admin; no api-key)",
      tag: 'devices online',
      responses: {
        201: { description: 'The new secret; the old one stops working', schema: deviceSecretSchema },
        403: { description: 'Not an admin' },
        404: { description: 'No such device' },
      },
    }),
    validate('param', serialParams),
    async (c) => {
      const { serial } = c.req.valid('param');
      if (!mayCreateInstallers(c.get('principal')))
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
    },
  );
  return app;
}
