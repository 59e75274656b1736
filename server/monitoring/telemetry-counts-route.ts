import { Hono } from 'hono';
import { sql } from 'kysely';
import { seesEverything } from '../../contracts/access-policy.ts';
import { type TelemetryCounts, telemetryCountsSchema } from '../../contracts/monitoring.ts';
import type { ServerContext } from '../context.ts';
import { forbidden } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { utcDay } from './telemetry/time-buckets.ts';

/** How many days of counts the call answers. */
const DAYS = 14;

/** `GET /telemetry/counts` (company staff): what telemetry was stored, refused or marked, per day. */
export function telemetryCountsRoute(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  app.get(
    '/telemetry/counts',
    describeRoute({
      summary: 'Telemetry stored, refused and marked, by kind, per day (company staff)',
      tag: 'monitoring',
      responses: {
        200: { description: 'Counts of the last 14 days, newest first', schema: telemetryCountsSchema },
        403: { description: 'Not company staff' },
      },
    }),
    async (c) => {
      if (!seesEverything(c.get('principal')))
        throw forbidden('Only company staff read the telemetry counts', 'admin_only');
      const rows = await sql<{ day: string; kind: string; count: number }>`
        SELECT day::text AS day, kind, count FROM telemetry_counts
        WHERE day > ${utcDay(Date.now())}::date - ${DAYS}::int
        ORDER BY day DESC, kind`.execute(ctx.db);
      const days = new Map<string, Record<string, number>>();
      for (const row of rows.rows) days.set(row.day, { ...days.get(row.day), [row.kind]: row.count });
      const body: TelemetryCounts = { days: [...days].map(([day, counts]) => ({ day, counts })) };
      return c.json(body);
    },
  );
  return app;
}
