import { Hono } from 'hono';
import {
  acknowledgeRequestSchema,
  alarmPageSchema,
  alarmParamsSchema,
  alarmSchema,
  alarmsQuerySchema,
} from '../../contracts/monitoring.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { INTEGRATOR_EXAMPLES } from '../openapi/integrator-examples.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { alarmById, alarmPage } from './alarms/alarm-queries.ts';
import { requireMayAcknowledge, visibleAlarms } from './monitoring-scope.ts';

/** Alarms of the devices the caller sees: the list, and acknowledging one. */
export function alarmRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();

  app.get(
    '/alarms',
    describeRoute({
      summary: 'Alarms of the devices the caller sees, newest raised first, with every transition',
      tag: 'alarms',
      responses: { 200: { description: 'A page of alarms', schema: alarmPageSchema } },
    }),
    validate('query', alarmsQuerySchema),
    async (c) => c.json(await alarmPage(ctx.db, visibleAlarms(c.get('principal')), c.req.valid('query'))),
  );

  app.post(
    '/alarms/:id/acknowledge',
    describeRoute({
      summary: 'Acknowledge an active alarm, with a note: who, when and why are stored',
      details: INTEGRATOR_EXAMPLES.acknowledge,
      tag: 'alarms',
      example: { note: 'Technician booked for Thursday morning' },
      responses: {
        200: { description: 'The alarm, acknowledged', schema: alarmSchema },
        403: { description: 'A viewer of the site does not acknowledge its alarms' },
        404: { description: 'No such alarm, or the caller may not see its device' },
        409: { description: 'alarm_not_active: it is acknowledged or cleared already' },
      },
    }),
    validate('param', alarmParamsSchema),
    validate('json', acknowledgeRequestSchema),
    async (c) => {
      const principal = c.get('principal');
      const { id } = c.req.valid('param');
      const visible = visibleAlarms(principal);
      const alarm = await alarmById(ctx.db, visible, id);
      if (!alarm) throw notFound('Alarm');
      await requireMayAcknowledge(ctx, principal, alarm.siteId);
      const result = await ctx.monitoring.alarms.acknowledge(
        id,
        { id: principal.id, name: principal.name },
        c.req.valid('json').note,
      );
      if (!result.ok)
        throw new ApiError(
          409,
          'alarm_not_active',
          `This alarm is ${result.state}; only an active alarm is acknowledged`,
        );
      return c.json(await alarmById(ctx.db, visible, id));
    },
  );
  return app;
}
