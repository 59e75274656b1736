import { type Context, Hono } from 'hono';
import { installDeviceQuerySchema, modelIdSchema } from '../../contracts/devices.ts';
import { readTotals } from '../access/list-totals.ts';
import { likePattern, requireSiteAccess, siteVisible, type Viewer } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { type Paging, readPaging } from '../http/paging.ts';
import { readInput } from '../http/validate.ts';
import { toDevice } from '../mappers.ts';
import { scopeDevicePage } from './device-list.ts';
import { listTarget } from './list-target.ts';
import { idParam } from './params.ts';

interface DeviceFilter {
  viewers: { viewer: Viewer; attachedOnly: boolean }[];
  siteId?: number;
  modelId?: string;
  serial?: string;
}

async function devicePage(ctx: ServerContext, filter: DeviceFilter, paging: Paging) {
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
    query
      .selectAll('devices')
      .select('sites.name as site_name')
      .orderBy('devices.site_id')
      .orderBy('devices.id')
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

/** Devices: lists per user, a site's installs, and a model's devices (or one by serial). */
export function deviceRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();

  const userList = async (c: Context<{ Variables: AuthVariables }>, attachedOnly: boolean) => {
    const { caller, target } = await listTarget(ctx, c);
    const paging = readPaging(c);
    if (!paging.q && (caller.id === target.id || caller.role === 'admin')) {
      const everything = target.role === 'admin' && !attachedOnly;
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
    if (caller.id !== target.id && caller.role !== 'admin')
      viewers.push({ viewer: caller, attachedOnly: false });
    return c.json(await devicePage(ctx, { viewers }, paging));
  };
  app.get('/fleet/devices/all/:userId', (c) => userList(c, false));
  app.get('/fleet/device-list/:userId/:page', (c) => userList(c, true));

  app.get('/fleet/sites/installs/:siteId', async (c) => {
    const siteId = readInput(c.req.param('siteId'), idParam, 'siteId');
    await requireSiteAccess(ctx.db, c.get('principal'), siteId);
    return c.json(await devicePage(ctx, { viewers: [], siteId }, readPaging(c)));
  });

  app.get('/install/device/:id', async (c) => {
    const modelId = readInput(c.req.param('id'), modelIdSchema, 'id');
    const { serial } = readInput(
      { serial: c.req.query('serial') || undefined },
      installDeviceQuerySchema,
      'serial',
    );
    const viewers = [{ viewer: c.get('principal') as Viewer, attachedOnly: false }];
    const page = await devicePage(ctx, { viewers, modelId, serial }, readPaging(c));
    if (serial !== undefined && page.total === 0) throw new ApiError(404, 'not_found', 'Device not found');
    return c.json(page);
  });
  return app;
}
