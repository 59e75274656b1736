import { Hono } from 'hono';
import {
  type DeviceStatus,
  deviceSeriesQuerySchema,
  deviceStatusPageSchema,
  deviceStatusQuerySchema,
  type LatestReading,
  latestReadingSchema,
  type Series,
  serialParamsSchema,
  seriesSchema,
} from '../../contracts/monitoring.ts';
import type { MonitoringRole } from '../../contracts/monitoring-terms.ts';
import type { Page } from '../../contracts/page.ts';
import { siteVisible } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import { answersIn } from '../http/accept-type.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { INTEGRATOR_EXAMPLES } from '../openapi/integrator-examples.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { deviceStatusPage } from './device-status.ts';
import { liveRoute } from './live-route.ts';
import { alarmsSince, requireMetric, requireVisibleDevice } from './monitoring-scope.ts';
import { chooseStep, lastStepPartial, rawPoints, rollupPoints } from './series.ts';
import { answerSeries, SERIES_CSV_NOTE, SERIES_TYPES } from './series-csv.ts';
import { READING_FLAGS } from './telemetry/read-frame.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** A device's telemetry: its state among the caller's devices, its latest reading, its series, its live stream. */
export function deviceRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.get(
    '/devices',
    describeRoute({
      summary: 'The devices the caller sees with their state: online, last seen, open alarms',
      tag: 'monitoring',
      responses: { 200: { description: 'A page of devices, by site', schema: deviceStatusPageSchema } },
    }),
    validate('query', deviceStatusQuerySchema),
    async (c) => {
      const principal = c.get('principal');
      const page: Page<DeviceStatus> = await deviceStatusPage(
        ctx,
        siteVisible(principal),
        alarmsSince(principal),
        c.req.valid('query'),
      );
      return c.json(page);
    },
  );

  app.get(
    '/devices/:serial/latest',
    describeRoute({
      summary: "A device's newest stored reading: telemetry and status values with their units",
      details: INTEGRATOR_EXAMPLES.latest,
      tag: 'monitoring',
      responses: {
        200: { description: 'The latest reading (receivedAt null: none yet)', schema: latestReadingSchema },
        404: { description: 'No such device, or the caller may not see it' },
      },
    }),
    validate('param', serialParamsSchema),
    async (c) => {
      const device = await requireVisibleDevice(ctx, c.get('principal'), c.req.valid('param').serial);
      const [stored, holder] = await Promise.all([
        db.selectFrom('telemetry_latest').selectAll().where('device_id', '=', device.id).executeTakeFirst(),
        ctx.comms.presence.holderOf(device.serial),
      ]);
      const metrics = device.product?.spec?.metrics ?? [];
      // A reading from before the caller sees the device (at a site they do not see) is not shown.
      const row =
        stored && !(device.seenFrom !== undefined && new Date(stored.device_time).getTime() < device.seenFrom)
          ? stored
          : undefined;
      const body: LatestReading = {
        serial: device.serial,
        modelId: device.modelId,
        online: holder !== undefined,
        receivedAt: row ? iso(new Date(row.received_at).getTime()) : null,
        deviceTime: row ? iso(new Date(row.device_time).getTime()) : null,
        clockAhead: row ? (row.flags & READING_FLAGS.clockAhead) !== 0 : false,
        values: row?.vals ?? {},
        units: Object.fromEntries(metrics.map((m) => [m.name, m.unit])),
        roles: Object.fromEntries(
          Object.entries(device.product?.spec?.roles ?? {}).map(([role, metric]) => [
            metric,
            role as MonitoringRole,
          ]),
        ),
        timeZone: device.timeZone,
      };
      c.header('Cache-Control', 'no-store');
      return c.json(body);
    },
  );

  app.get(
    '/devices/:serial/series',
    describeRoute({
      summary: 'One metric of a device over a time range, at a step giving at most about 2,000 points',
      details: INTEGRATOR_EXAMPLES.series,
      tag: 'monitoring',
      responses: {
        200: {
          description:
            'Points [epoch ms, value]: readings (raw), or per step the average (an energy counter: its increase)',
          schema: seriesSchema,
          csv: SERIES_CSV_NOTE,
        },
        404: { description: 'No such device, or the caller may not see it' },
      },
    }),
    answersIn(SERIES_TYPES),
    validate('param', serialParamsSchema),
    validate('query', deviceSeriesQuerySchema),
    async (c) => {
      const device = await requireVisibleDevice(ctx, c.get('principal'), c.req.valid('param').serial);
      const query = c.req.valid('query');
      const metric = requireMetric(device, query.metric);
      const step = chooseStep(
        query.from,
        query.to,
        ctx.env.TELEMETRY_INTERVAL_S,
        ['raw', '5min', '1h', '1day'],
        query.step,
      );
      // Nothing from before the caller sees the device: a lower bound on the range (raw), or on
      // the steps (rollups, whose steps holding anything older are left out).
      const points =
        step === 'raw'
          ? await rawPoints(db, device.id, metric.name, Math.max(query.from, device.seenFrom ?? 0), query.to)
          : await rollupPoints(
              db,
              device.timeZone,
              [{ deviceId: device.id, metric: metric.name, since: device.seenFrom }],
              step,
              metric.counter ? 'increase' : 'average',
              'sum',
              query.from,
              query.to,
            );
      const body: Series = {
        metric: metric.name,
        unit: metric.unit,
        step,
        values: step === 'raw' ? 'reading' : metric.counter ? 'increase' : 'average',
        from: iso(query.from),
        to: iso(query.to),
        timeZone: device.timeZone,
        points,
        partial: lastStepPartial(points, step, device.timeZone, query.to),
      };
      return answerSeries(c, body, `${device.serial}-${metric.name}-${body.from.slice(0, 10)}.csv`);
    },
  );

  app.route('/', liveRoute(ctx));
  return app;
}
