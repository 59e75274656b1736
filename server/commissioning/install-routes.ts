import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type Actor, isStaff } from '../../contracts/access-policy.ts';
import type { DeviceEntry } from '../../contracts/catalogue.ts';
import { deviceSchema } from '../../contracts/devices.ts';
import { idParamSchema } from '../../contracts/ids.ts';
import {
  auditListSchema,
  auditQuerySchema,
  installedDeviceSchema,
  installRequestSchema,
  installSerialSchema,
  installUpdateSchema,
  replaceRequestSchema,
} from '../../contracts/installs.ts';
import { deviceRights } from '../access/device-access.ts';
import {
  requireInstalledDevice,
  requireInstallSite,
  requireSeenSite,
  visibleSiteIds,
} from '../access/install-access.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { issueDeviceSecret } from '../service-comms/device-secrets.ts';
import { claimWith } from './claim-codes.ts';
import { readAudit, recordAudit } from './install-audit.ts';
import {
  asDevice,
  holdSite,
  insertDevice,
  isArchivedSite,
  isRetiredSerial,
  retireDevice,
  siteOfSerial,
  uniqueSerial,
  updateDevice,
} from './install-store.ts';
import type { ProductCatalogue } from './product-catalogue.ts';

const siteParams = z.object({ siteId: idParamSchema });
const deviceParams = z.object({ deviceId: idParamSchema });
const serialParams = z.object({ serial: installSerialSchema });

/**
 * The catalogue entry of a model, and a serial of that model: the documented form (checked by
 * the schema) starting with the model's serial prefix.
 * @throws {ApiError} 400 naming `modelId` (no such model) or `serial` (another model's prefix).
 */
export async function modelFor(
  catalogue: ProductCatalogue,
  modelId: string,
  serial: string,
): Promise<DeviceEntry> {
  const entry = await catalogue.entry(modelId);
  if (!entry)
    throw new ApiError(
      400,
      'invalid_input',
      `modelId: ${modelId} is not a model of the catalogue`,
      'modelId',
    );
  if (!serial.startsWith(`${entry.serialPrefix}-`))
    throw new ApiError(
      400,
      'invalid_input',
      `serial: ${serial} is not a ${modelId} serial number; they start with ${entry.serialPrefix}- (e.g. ${entry.serialPrefix}-24-000123)`,
      'serial',
    );
  return entry;
}

/**
 * Refuse a serial that is already on a site: 409 `device_installed_elsewhere`, naming that site
 * only to a caller who sees it (`device_already_installed` when it is this very site).
 */
export async function requireFreeSerial(db: Kysely<Database>, viewer: Actor, serial: string, siteId: number) {
  const installed = await siteOfSerial(db, serial);
  if (!installed) return;
  if (installed.siteId === siteId)
    throw new ApiError(409, 'device_already_installed', `${serial} is already installed at this site`);
  const seen = await visibleSiteIds(db, viewer, [installed.siteId]);
  const where = seen.has(installed.siteId)
    ? `at ${installed.siteName} (site ${installed.siteId})`
    : 'at a site you cannot see';
  throw new ApiError(
    409,
    'device_installed_elsewhere',
    `${serial} is installed ${where}; it must be taken off that site first`,
    'serial',
  );
}

const installExample = { serial: 'HX5K-26-000901', modelId: 'HX-5000', name: 'Garage inverter' };

/**
 * Devices on sites, mounted at `/fleet`: install, move or rename, replace, take off, and the
 * record of every change (on a site's and a device's page).
 */
export function installRoutes(
  ctx: ServerContext,
  catalogue: ProductCatalogue,
): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.post(
    '/sites/:siteId/installs',
    describeRoute({
      summary: 'Put a device on a site; answers its service-comms secret, shown once',
      tag: 'installs',
      example: installExample,
      responses: {
        201: { description: 'The device and its secret', schema: installedDeviceSchema },
        403: { description: 'The caller sees the site without the installer role' },
        404: { description: 'No such site, or one the caller cannot see' },
        409: {
          description:
            'The serial is on a site already (device_installed_elsewhere), or has a claim code and is claimed with it (claim_code_needed)',
        },
      },
    }),
    validate('param', siteParams),
    validate('json', installRequestSchema),
    async (c) => {
      const principal = c.get('principal');
      const { siteId } = c.req.valid('param');
      const body = c.req.valid('json');
      const site = await requireInstallSite(db, principal, siteId);
      const entry = await modelFor(catalogue, body.modelId, body.serial);
      // A serial of a manufacturing list is claimed with its code (`POST …/claims`), never by serial alone.
      await claimWith(db, body.serial, undefined);
      await requireFreeSerial(db, principal, body.serial, siteId);
      const installed = await uniqueSerial(
        () =>
          db.transaction().execute(async (trx) => {
            await holdSite(trx, siteId);
            const row = await insertDevice(trx, {
              model_id: body.modelId,
              serial: body.serial,
              name: body.name ?? entry.name,
              site_id: siteId,
            });
            const secret = await issueDeviceSecret(trx, row.id);
            await recordAudit(trx, principal, {
              action: 'installed',
              site,
              serial: row.serial,
              modelId: row.model_id,
              newName: row.name,
            });
            return { ...asDevice(row, site.name), secret };
          }),
        () =>
          requireFreeSerial(db, principal, body.serial, siteId).then(() => {
            throw new ApiError(409, 'device_installed_elsewhere', `${body.serial} is installed already`);
          }),
      );
      c.header('Cache-Control', 'no-store');
      return c.json(installed, 201);
    },
  );

  app.put(
    '/installs/:deviceId',
    describeRoute({
      summary: 'Move a device to another site, rename it, or both',
      tag: 'installs',
      example: { siteId: 5, name: 'Garage inverter' },
      responses: {
        200: { description: 'The device', schema: deviceSchema },
        403: { description: 'Not an installer of the site (both sites for a move)' },
        404: { description: 'No such device or site, or one the caller cannot see' },
      },
    }),
    validate('param', deviceParams),
    validate('json', installUpdateSchema),
    async (c) => {
      const principal = c.get('principal');
      const { deviceId } = c.req.valid('param');
      const body = c.req.valid('json');
      const device = await requireInstalledDevice(db, principal, deviceId);
      const moving = body.siteId !== undefined && body.siteId !== device.siteId;
      const target =
        moving && body.siteId !== undefined ? await requireInstallSite(db, principal, body.siteId) : null;
      const renaming = body.name !== undefined && body.name !== device.name;
      // The site and name it has already: nothing to change, nothing to record.
      if (!target && !renaming)
        return c.json(
          asDevice(
            {
              id: device.id,
              model_id: device.modelId,
              serial: device.serial,
              name: device.name,
              site_id: device.siteId,
              installed_at: device.installedAt,
            },
            device.siteName,
          ),
        );
      const updated = await db.transaction().execute(async (trx) => {
        if (target) await holdSite(trx, target.id);
        const row = await updateDevice(trx, device.id, {
          ...(target && { siteId: target.id }),
          ...(renaming && { name: body.name }),
        });
        const site = target ?? { id: device.siteId, name: device.siteName };
        const unit = { serial: device.serial, modelId: device.modelId };
        if (target)
          await recordAudit(trx, principal, {
            action: 'moved',
            site: target,
            fromSite: { id: device.siteId, name: device.siteName },
            ...unit,
            deviceName: row.name,
          });
        if (renaming)
          await recordAudit(trx, principal, {
            action: 'renamed',
            site,
            ...unit,
            oldName: device.name,
            newName: row.name,
          });
        return asDevice(row, site.name);
      });
      // Who sees it now may have changed: its live streams check again.
      if (target) await ctx.monitoring.live.announce({ devices: [device.id] });
      return c.json(updated);
    },
  );

  app.post(
    '/installs/:deviceId/replace',
    describeRoute({
      summary: "A new unit of the same model takes the old one's place, name and site",
      tag: 'installs',
      example: { serial: 'HX5K-26-000902' },
      responses: {
        201: { description: 'The new unit and its secret, shown once', schema: installedDeviceSchema },
        403: { description: 'Not an installer of the site' },
        404: { description: 'No such device, or one the caller cannot see' },
        400: { description: "The claim code is not the new serial's (claim_not_matched)" },
        409: {
          description:
            'The new serial is on a site already, has a claim code not given (claim_code_needed), or the old unit was replaced or taken off meanwhile (device_changed)',
        },
      },
    }),
    validate('param', deviceParams),
    validate('json', replaceRequestSchema),
    async (c) => {
      const principal = c.get('principal');
      const { deviceId } = c.req.valid('param');
      const { serial, claimCode } = c.req.valid('json');
      const old = await requireInstalledDevice(db, principal, deviceId);
      await modelFor(catalogue, old.modelId, serial);
      const claimed = await claimWith(db, serial, claimCode);
      if (serial === old.serial)
        throw new ApiError(
          400,
          'invalid_input',
          'serial: the replacement has the same serial number',
          'serial',
        );
      await requireFreeSerial(db, principal, serial, -1);
      const site = { id: old.siteId, name: old.siteName };
      // The old unit's socket closes now: its secret goes with its place on the site.
      await ctx.comms.dropDevice(old.serial);
      const replacement = await uniqueSerial(
        () =>
          db.transaction().execute(async (trx) => {
            await retireDevice(trx, principal, old, 'replaced', serial);
            const row = await insertDevice(trx, {
              model_id: old.modelId,
              serial,
              name: old.name,
              site_id: old.siteId,
              claimed_at: claimed ? new Date() : null,
            });
            const secret = await issueDeviceSecret(trx, row.id);
            await recordAudit(trx, principal, {
              action: 'replaced',
              site,
              serial,
              modelId: old.modelId,
              otherSerial: old.serial,
              newName: row.name,
            });
            return { ...asDevice(row, site.name), secret };
          }),
        () =>
          requireFreeSerial(db, principal, serial, -1).then(() => {
            throw new ApiError(409, 'device_installed_elsewhere', `${serial} is installed already`);
          }),
      );
      await ctx.monitoring.live.announce({ devices: [old.id] });
      c.header('Cache-Control', 'no-store');
      return c.json(replacement, 201);
    },
  );

  app.delete(
    '/installs/:deviceId',
    describeRoute({
      summary: 'Take a device off its site; its configuration history stays readable to staff',
      tag: 'installs',
      responses: {
        204: { description: 'Taken off' },
        403: { description: 'Not an installer of the site' },
        404: { description: 'No such device, or one the caller cannot see' },
        409: { description: 'It was replaced or taken off meanwhile (device_changed)' },
      },
    }),
    validate('param', deviceParams),
    async (c) => {
      const principal = c.get('principal');
      const { deviceId } = c.req.valid('param');
      const device = await requireInstalledDevice(db, principal, deviceId);
      await ctx.comms.dropDevice(device.serial);
      await db.transaction().execute(async (trx) => {
        await retireDevice(trx, principal, device, 'removed', null);
        await recordAudit(trx, principal, {
          action: 'removed',
          site: { id: device.siteId, name: device.siteName },
          serial: device.serial,
          modelId: device.modelId,
          oldName: device.name,
        });
      });
      await ctx.monitoring.live.announce({ devices: [device.id] });
      return c.body(null, 204);
    },
  );

  app.get(
    '/sites/:siteId/audit',
    describeRoute({
      summary: 'What was changed on a site (devices put on, moved, replaced, taken off), newest first',
      tag: 'installs',
      responses: {
        200: { description: 'The records', schema: auditListSchema },
        404: { description: 'No such site, or one the caller cannot see' },
      },
    }),
    validate('param', siteParams),
    validate('query', auditQuerySchema),
    async (c) => {
      const principal = c.get('principal');
      const { siteId } = c.req.valid('param');
      const { limit } = c.req.valid('query');
      // Staff read the records of an archived site too.
      const archived = isStaff(principal) && (await isArchivedSite(db, siteId));
      if (!archived) await requireSeenSite(db, principal, siteId);
      const items = await readAudit(db, principal, ctx.env.COMPANY_DOMAIN, { siteId }, limit);
      return c.json({ items });
    },
  );

  app.get(
    '/devices/:serial/audit',
    describeRoute({
      summary: "What was changed of a device's place on sites, newest first",
      tag: 'installs',
      responses: {
        200: { description: 'The records', schema: auditListSchema },
        404: { description: 'No such device, or one the caller cannot see' },
      },
    }),
    validate('param', serialParams),
    validate('query', auditQuerySchema),
    async (c) => {
      const principal = c.get('principal');
      const { serial } = c.req.valid('param');
      const { limit } = c.req.valid('query');
      const rights = await deviceRights(db, principal, serial);
      if (!rights?.sees && !(await staffReadsRetired(db, principal, serial))) throw notFound('Device');
      const items = await readAudit(db, principal, ctx.env.COMPANY_DOMAIN, { serial }, limit);
      return c.json({ items });
    },
  );
  return app;
}

/**
 * Whether company staff may read what is kept of a serial that is on no site now (taken off or
 * replaced): its configuration history and its records.
 */
export async function staffReadsRetired(
  db: Kysely<Database>,
  principal: Actor,
  serial: string,
): Promise<boolean> {
  return isStaff(principal) && isRetiredSerial(db, serial);
}
