import { sql } from 'kysely';
import { isCompanyStaffEmail } from '../../contracts/company-staff.ts';
import { siteVisible } from '../access/scope.ts';
import type { Principal } from '../auth/access-tokens.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, forbidden, notFound } from '../http/errors.ts';
import type { Product } from './telemetry/product-catalogue.ts';

/**
 * Who sees what on the monitoring service, with the rules of devices and sites: company staff (an
 * admin, or an e-mail in the company domain) see every device and site; anyone else the devices of
 * the sites they hold switched-on access to. What a caller may not see answers 404, so nobody
 * learns which serial numbers or sites exist.
 */
export function seesEverything(ctx: ServerContext, principal: Principal): boolean {
  return principal.role === 'admin' || isCompanyStaffEmail(principal.email, ctx.env.COMPANY_DOMAIN);
}

/** The condition "the caller sees this site" on a query with `sites` in scope. */
export function visibleSites(ctx: ServerContext, principal: Principal) {
  return seesEverything(ctx, principal) ? sql<boolean>`true` : siteVisible(principal);
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
}

/**
 * The device with this serial, when the caller sees it.
 * @throws {ApiError} 404 when there is none, or the caller may not see it.
 */
export async function requireVisibleDevice(
  ctx: ServerContext,
  principal: Principal,
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
    .where('devices.serial', '=', serial)
    .where(visibleSites(ctx, principal))
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
  };
}

/**
 * The site, when the caller sees it.
 * @throws {ApiError} 404 when there is none, or the caller may not see it.
 */
export async function requireVisibleSite(
  ctx: ServerContext,
  principal: Principal,
  siteId: number,
): Promise<{ id: number; name: string; timeZone: string }> {
  const row = await ctx.db
    .selectFrom('sites')
    .select(['sites.id', 'sites.name', 'sites.time_zone as timeZone'])
    .where('sites.id', '=', siteId)
    .where(visibleSites(ctx, principal))
    .executeTakeFirst();
  if (!row) throw notFound('Site');
  return row;
}

/** Site roles that may acknowledge alarms: everyone with access but a `viewer` alone. */
const ACKNOWLEDGING_ROLES = ['owner', 'installer', 'configurator'];

/**
 * Require that the caller may acknowledge alarms of a site they see: company staff, or switched-on
 * access with a site role other than `viewer`.
 * @throws {ApiError} 403 `site_role_forbidden` for a viewer.
 */
export async function requireMayAcknowledge(
  ctx: ServerContext,
  principal: Principal,
  siteId: number,
): Promise<void> {
  if (seesEverything(ctx, principal)) return;
  const access = await ctx.db
    .selectFrom('site_access')
    .select('roles')
    .where('site_id', '=', siteId)
    .where('user_id', '=', principal.id)
    .where('access', '=', true)
    .executeTakeFirst();
  if (!access?.roles.some((role) => ACKNOWLEDGING_ROLES.includes(role)))
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
