import { Hono } from 'hono';
import {
  type SiteMetric,
  type SiteSeries,
  siteNowSchema,
  siteParamsSchema,
  siteSeriesQuerySchema,
  siteSeriesSchema,
} from '../../contracts/monitoring.ts';
import { ROLE_UNITS } from '../../contracts/monitoring-terms.ts';
import type { ServerContext } from '../context.ts';
import { answersIn } from '../http/accept-type.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { requireVisibleSite } from './monitoring-scope.ts';
import { chooseStep, lastStepPartial, rollupPoints } from './series.ts';
import { answerSeries, SERIES_CSV_NOTE, SERIES_TYPES } from './series-csv.ts';
import { producedPerDay, roleSeries, siteDevices, siteNow } from './site-now.ts';

/** How a site adds its devices up: powers and energy summed, state of charge averaged. */
const ACROSS: Record<SiteMetric, 'sum' | 'avg'> = {
  production: 'sum',
  consumption: 'sum',
  grid: 'sum',
  battery: 'sum',
  soc: 'avg',
  producedEnergy: 'sum',
};

/** A site's telemetry: its devices' metrics of one role, added up. */
export function siteRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();

  app.get(
    '/sites/:siteId/series',
    describeRoute({
      summary:
        "A site's power (production, consumption, grid, battery: its devices summed), state of charge (averaged) or produced energy (added) over a time range",
      tag: 'monitoring',
      responses: {
        200: {
          description: 'Points [epoch ms of the step, value], and how many devices report the metric',
          schema: siteSeriesSchema,
          csv: SERIES_CSV_NOTE,
        },
        404: { description: 'No such site, or the caller may not see it' },
      },
    }),
    answersIn(SERIES_TYPES),
    validate('param', siteParamsSchema),
    validate('query', siteSeriesQuerySchema),
    async (c) => {
      const site = await requireVisibleSite(ctx, c.get('principal'), c.req.valid('param').siteId);
      const query = c.req.valid('query');
      // Each product names the item that plays the role (the catalogue's monitoring roles); each
      // device counts from when the caller sees its readings.
      const devices = await siteDevices(ctx, site.id, c.get('principal'));
      const series = roleSeries(devices, query.metric);
      const step = chooseStep(
        query.from,
        query.to,
        ctx.env.TELEMETRY_INTERVAL_S,
        ['5min', '1h', '1day'],
        query.step,
      );
      const energy = query.metric === 'producedEnergy';
      // Energy per day is the query today's "produced" of the site's now is (site-now.ts).
      const points =
        energy && step === '1day'
          ? await producedPerDay(ctx, site.timeZone, devices, query.from, query.to)
          : await rollupPoints(
              ctx.db,
              site.timeZone,
              series,
              step === 'raw' ? '5min' : step,
              energy ? 'increase' : 'average',
              ACROSS[query.metric],
              query.from,
              query.to,
            );
      const body: SiteSeries = {
        siteId: site.id,
        devices: series.length,
        metric: query.metric,
        unit: ROLE_UNITS[query.metric],
        step,
        values: energy ? 'increase' : ACROSS[query.metric] === 'sum' ? 'sum' : 'average',
        from: new Date(query.from).toISOString(),
        to: new Date(query.to).toISOString(),
        timeZone: site.timeZone,
        points,
        partial: lastStepPartial(points, step, site.timeZone, query.to),
      };
      return answerSeries(c, body, `site-${site.id}-${query.metric}-${body.from.slice(0, 10)}.csv`);
    },
  );
  app.get(
    '/sites/:siteId/now',
    describeRoute({
      summary:
        "A site's power flow now (production, consumption, grid, battery, charge) and its energy balance today, in the site's time zone",
      tag: 'monitoring',
      responses: {
        200: {
          description: 'The power by role now and the energy since local midnight',
          schema: siteNowSchema,
        },
        404: { description: 'No such site, or the caller may not see it' },
      },
    }),
    validate('param', siteParamsSchema),
    async (c) => {
      const site = await requireVisibleSite(ctx, c.get('principal'), c.req.valid('param').siteId);
      c.header('Cache-Control', 'no-store');
      return c.json(await siteNow(ctx, site, c.get('principal')));
    },
  );
  return app;
}
