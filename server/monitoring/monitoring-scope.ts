import { type RawBuilder, sql } from 'kysely';
import { type Actor, mayAcknowledgeOnSite, seesEverything } from '../../contracts/access-policy.ts';
import { siteVisible } from '../access/scope.ts';
import { seenSince } from '../commissioning/installations.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import type { Product } from './telemetry/product-catalogue.ts';

/*
 * Who sees what on the monitoring service follows the rules of devices and sites
 * (contracts/access-policy.ts, `siteVisible`): one who sees everything (an admin, company staff)
 * every device and site; anyone else the devices of the sites they hold switched-on access to.
 * What a caller may not see answers 404, so nobody learns which serial numbers or sites exist.
 */

/**
 * From when the caller sees devices' readings and alarms, as SQL for the device `deviceId`: after
 * the device's stays at sites the caller does not see (installations.ts); null for staff.
 */
export function readingsSince(principal: Actor, deviceId: Parameters<typeof seenSince>[1]) {
  return seenSince(seesEverything(principal) ? null : siteVisible(principal), deviceId);
}

/**
 * The condition "the caller sees this alarm" on a query with `alarms a` and `sites` in scope: an
 * alarm of a device at a site they see, raised since they see its readings.
 */
export function visibleAlarms(principal: Actor): RawBuilder<boolean> {
  if (seesEverything(principal)) return sql<boolean>`true`;
  return sql<boolean>`${siteVisible(principal)} AND ${alarmsSince(principal)}`;
}

/** The condition "raised since the caller sees its device's readings" on a query with `alarms a`. */
export function alarmsSince(principal: Actor): RawBuilder<boolean> {
  if (seesEverything(principal)) return sql<boolean>`true`;
  return sql<boolean>`a.raised_at >= coalesce(${readingsSince(principal, sql.ref('a.device_id'))}, '-infinity')`;
}

/** A device the caller sees, with its product in the catalogue (if the catalogue has the model). */
export interface VisibleDevice {
  id: number;
  serial: string;
  modelId: string;
  name: string;
  siteId: number;
  /** The IANA zone of the device's site: its days. */
  timeZone: string;
  product: Product | undefined;
  /**
   * Epoch ms from which the caller sees the device's readings and alarms (it was at a site they
   * do not see before); undefined: all of them.
   */
  seenFrom: number | undefined;
}

/**
 * The device with this serial, when the caller sees it.
 * @throws {ApiError} 404 when there is none, or the caller may not see it.
 */
export async function requireVisibleDevice(
  ctx: ServerContext,
  principal: Actor,
  serial: string,
): Promise<VisibleDevice> {
  const row = await ctx.db
    .selectFrom('devices')
    .innerJoin('sites', 'sites.id', 'devices.site_id')
    .select([
      'devices.id',
      'devices.serial',
      'devices.model_id',
      'devices.name',
      'devices.site_id',
      'sites.time_zone',
    ])
    .select(readingsSince(principal, sql.ref('devices.id')).as('seen_from'))
    .where('devices.serial', '=', serial)
    .where(siteVisible(principal))
    .executeTakeFirst();
  if (!row) throw notFound('Device');
  return {
    id: row.id,
    serial: row.serial,
    modelId: row.model_id,
    name: row.name,
    siteId: row.site_id,
    timeZone: row.time_zone,
    product: ctx.monitoring.catalogue.product(row.model_id),
    seenFrom: row.seen_from === null ? undefined : new Date(row.seen_from).getTime(),
  };
}

/**
 * The site, when the caller sees it.
 * @throws {ApiError} 404 when there is none, or the caller may not see it.
 */
export async function requireVisibleSite(
  ctx: ServerContext,
  principal: Actor,
  siteId: number,
): Promise<{ id: number; name: string; timeZone: string }> {
  const row = await ctx.db
    .selectFrom('sites')
    .select(['sites.id', 'sites.name', 'sites.time_zone as timeZone'])
    .where('sites.id', '=', siteId)
    .where(siteVisible(principal))
    .executeTakeFirst();
  if (!row) throw notFound('Site');
  return row;
}

/**
 * Require that the caller may acknowledge alarms of a site they see: company staff, or switched-on
 * access with a site role other than `viewer`.
 * @throws {ApiError} 403 `site_role_forbidden` for a viewer.
 */
export async function requireMayAcknowledge(
  ctx: ServerContext,
  principal: Actor,
  siteId: number,
): Promise<void> {
  if (seesEverything(principal)) return;
  const grant = await ctx.db
    .selectFrom('site_access')
    .select(['roles', 'access'])
    .where('site_id', '=', siteId)
    .where('user_id', '=', principal.id)
    .executeTakeFirst();
  if (!mayAcknowledgeOnSite(principal, grant))
    throw forbidden('A viewer of the site does not acknowledge its alarms', 'site_role_forbidden');
}

/**
 * The telemetry metric of the device's product with this name.
 * @throws {ApiError} 400 naming `metric` when the product has no such metric (or no telemetry).
 */
export function requireMetric(device: VisibleDevice, metric: string) {
  const metrics = device.product?.spec?.metrics ?? [];
  const found = metrics.find((m) => m.name === metric);
  if (found) return found;
  const known = metrics.map((m) => m.name).join(', ');
  throw new ApiError(
    400,
    'invalid_input',
    known
      ? `metric: the ${device.modelId} has no metric "${metric}"; it has ${known}`
      : `metric: the ${device.modelId} sends no telemetry`,
    'metric',
  );
}
