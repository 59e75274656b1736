import { type Context, Hono } from 'hono';
import { sql } from 'kysely';
import { z } from 'zod';
import { seesEverything } from '../../contracts/access-policy.ts';
import {
  deviceListQuerySchema,
  devicePageSchema,
  installDeviceQuerySchema,
  modelIdSchema,
} from '../../contracts/devices.ts';
import { idParamSchema } from '../../contracts/ids.ts';
import type { DeviceSortKey } from '../../contracts/list-sort-keys.ts';
import { likePattern, requireSiteAccess, siteVisible, type Viewer } from '../access/scope.ts';
import { readTotals } from '../cache/list-totals.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { type Paging, pageQuery, toPaging } from '../http/paging.ts';
import { validate } from '../http/validate.ts';
import { toDevice } from '../mappers.ts';
import { describeRoute, type RouteDescription } from '../openapi/route-notes.ts';
import { scopeDevicePage } from './device-list.ts';
import { listTarget, userListParams, userPageParams } from './list-target.ts';

interface DeviceFilter {
  viewers: { viewer: Viewer; attachedOnly: boolean }[];
  siteId?: number;
  modelId?: string;
  serial?: string;
}

/** What each sort key orders by; without a sort, devices go by site, then id. */
const DEVICE_ORDER = {
  serial: sql`devices.serial`,
  model: sql`devices.model_id`,
  name: sql`lower(devices.name)`,
  site: sql`lower(sites.name)`,
  installed: sql`devices.installed_at`,
} satisfies Record<DeviceSortKey, unknown>;

const pagedDeviceQuery = deviceListQuerySchema.extend(pageQuery);

async function devicePage(ctx: ServerContext, filter: DeviceFilter, paging: Paging<DeviceSortKey>) {
  let query = ctx.db.selectFrom('devices').innerJoin('sites', 'sites.id', 'devices.site_id');
  for (const { viewer, attachedOnly } of filter.viewers)
    query = query.where(siteVisible(viewer, attachedOnly));
  if (filter.siteId !== undefined) query = query.where('devices.site_id', '=', filter.siteId);
  if (filter.modelId !== undefined) query = query.where('devices.model_id', '=', filter.modelId);
  if (filter.serial !== undefined) query = query.where('devices.serial', '=', filter.serial);
  if (paging.q) {
    const pattern = likePattern(paging.q);
    query = query.where((eb) =>
      eb.or([
        eb('devices.serial', 'ilike', pattern),
        eb('devices.name', 'ilike', pattern),
        eb('sites.name', 'ilike', pattern),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    (paging.sort
      ? query
          .orderBy(DEVICE_ORDER[paging.sort.key], paging.sort.descending ? 'desc' : 'asc')
          .orderBy('devices.id', paging.sort.descending ? 'desc' : 'asc')
      : query.orderBy('devices.site_id').orderBy('devices.id')
    )
      .selectAll('devices')
      .select('sites.name as site_name')
      .limit(paging.pageSize)
      .offset(paging.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map(toDevice),
    page: paging.page,
    pageSize: paging.pageSize,
    total: Number(count.total),
  };
}

const devicePage200 = { 200: { description: 'A page of devices', schema: devicePageSchema } };

const userListDescription = (summary: string): RouteDescription => ({
  summary,
  tag: 'devices',
  responses: { ...devicePage200, 403: { description: 'Not yours' } },
});

/**
 * Devices at the sites a user sees (or is attached to), through the caller's eyes. Unfiltered
 * lists of the caller's own scope (or any scope, for an admin) come from the page cache.
 */
async function userList(
  ctx: ServerContext,
  c: Context<{ Variables: AuthVariables }>,
  list: { userId: number; attachedOnly: boolean; paging: Paging<DeviceSortKey> },
): Promise<Response> {
  const { attachedOnly, paging } = list;
  const { caller, target } = await listTarget(ctx, c.get('principal'), list.userId);
  if (!paging.q && !paging.sort && (caller.id === target.id || seesEverything(caller))) {
    const everything = seesEverything(target) && !attachedOnly;
    const scope = everything ? 0 : target.id;
    const key = `device:${scope}:${paging.offset}:${paging.pageSize}`;
    const body = await ctx.lists.pages.json(
      key,
      () => readTotals(ctx.db, scope).then((totals) => totals.version),
      async () => {
        // The totals are read first: a page read after them is as new as they are or newer.
        const totals = await readTotals(ctx.db, scope);
        const anchors = ctx.lists.deviceAnchors;
        const page = await scopeDevicePage(ctx.db, anchors, target, everything, totals, paging);
        return { page, version: totals.version };
      },
    );
    return c.body(body, 200, { 'content-type': 'application/json' });
  }
  const viewers = [{ viewer: target, attachedOnly }];
  if (caller.id !== target.id && !seesEverything(caller))
    viewers.push({ viewer: caller, attachedOnly: false });
  return c.json(await devicePage(ctx, { viewers }, paging));
}

/** Devices, mounted at `/fleet`: lists per user and a site's installs. */
export function fleetDeviceRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();

  app.get(
    '/devices/all/:userId',
    describeRoute(userListDescription('Devices at every site a user sees')),
    validate('param', userListParams),
    validate('query', pagedDeviceQuery),
    (c) => {
      const { userId } = c.req.valid('param');
      return userList(ctx, c, { userId, attachedOnly: false, paging: toPaging(c.req.valid('query')) });
    },
  );

  app.get(
    '/device-list/:userId/:page',
    describeRoute(userListDescription('Devices at the sites a user is attached to')),
    validate('param', userPageParams),
    validate('query', deviceListQuerySchema),
    (c) => {
      const { userId, page } = c.req.valid('param');
      const paging = toPaging({ page, ...c.req.valid('query') });
      return userList(ctx, c, { userId, attachedOnly: true, paging });
    },
  );

  app.get(
    '/sites/installs/:siteId',
    describeRoute({
      summary: 'Devices installed at a site',
      tag: 'devices',
      responses: {
        ...devicePage200,
        403: { description: 'No access' },
        404: { description: 'No such site' },
      },
    }),
    validate('param', z.object({ siteId: idParamSchema })),
    validate('query', pagedDeviceQuery),
    async (c) => {
      const { siteId } = c.req.valid('param');
      await requireSiteAccess(ctx.db, c.get('principal'), siteId);
      return c.json(await devicePage(ctx, { viewers: [], siteId }, toPaging(c.req.valid('query'))));
    },
  );
  return app;
}

/** A model's devices, mounted at `/install`. */
export function modelDeviceRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  app.get(
    '/device/:id',
    describeRoute({
      summary: 'Visible devices of a model, or one by serial',
      tag: 'devices',
      responses: { ...devicePage200, 404: { description: 'No such serial' } },
    }),
    validate('param', z.object({ id: modelIdSchema })),
    validate('query', installDeviceQuerySchema.extend(pagedDeviceQuery.shape)),
    async (c) => {
      const { id: modelId } = c.req.valid('param');
      const { serial, ...query } = c.req.valid('query');
      const viewers = [{ viewer: c.get('principal') as Viewer, attachedOnly: false }];
      const page = await devicePage(ctx, { viewers, modelId, serial }, toPaging(query));
      if (serial !== undefined && page.total === 0) throw new ApiError(404, 'not_found', 'Device not found');
      return c.json(page);
    },
  );
  return app;
}
