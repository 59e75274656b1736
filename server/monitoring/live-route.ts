import { Hono } from 'hono';
import {
  LIVE_EVENTS,
  type LiveReading,
  liveReadingSchema,
  serialParamsSchema,
} from '../../contracts/monitoring.ts';
import type { ServerContext } from '../context.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { requireVisibleDevice } from './monitoring-scope.ts';
import { personStreams } from './person-streams.ts';
import { streamCaller } from './stream-caller.ts';
import { liveReading } from './telemetry/live-feed.ts';

/** A reconnecting stream (Last-Event-ID) catches up on at most the last hour. */
const CATCH_UP_MS = 3_600_000;

/**
 * `GET /devices/{serial}/live`: Server-Sent Events, `event: reading` with a {@link LiveReading} for
 * every reading stored, whichever process stored it; `id` is the reading's device time in epoch
 * ms. The first event is the device's latest reading; a client that reconnects with
 * `Last-Event-ID` gets what it missed instead (up to an hour). The stream ends when the access
 * token expires (the client reconnects with a fresh one), and within moments of the person signing
 * out, their sign-in being revoked, or their access to the device ending, on whichever process
 * that happened.
 */
export function liveRoute(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  // Ten a person per process; past 200 events unread the stream ends (it reconnects and catches up).
  const openStream = personStreams('live', { perUser: 10, maxUnsent: 200 }, ctx.alarm);

  app.get(
    '/devices/:serial/live',
    describeRoute({
      summary: "A device's readings as they are stored (Server-Sent Events, event: reading)",
      tag: 'monitoring',
      responses: {
        200: {
          description:
            'text/event-stream: `event: reading`, `id: <device time, epoch ms>`, `data:` one reading as JSON',
          schema: liveReadingSchema,
        },
        404: { description: 'No such device, or the caller may not see it' },
        429: { description: 'This person holds too many live streams open' },
      },
    }),
    validate('param', serialParamsSchema),
    async (c) => {
      const principal = c.get('principal');
      const device = await requireVisibleDevice(ctx, principal, c.req.valid('param').serial);
      const lastEventId = Number(c.req.header('last-event-id'));
      const { live } = ctx.monitoring;
      const latest = await ctx.db
        .selectFrom('telemetry_latest')
        .select(['device_id', 'device_time', 'received_at', 'flags', 'vals'])
        .where('device_id', '=', device.id)
        .executeTakeFirst();
      return openStream(c, (sink) => {
        const send = (reading: LiveReading, at: number) =>
          sink.send({ event: LIVE_EVENTS.reading, id: String(at), data: JSON.stringify(reading) });
        // Nothing from before the caller sees the device (at a site they do not see) is sent.
        const seenFrom = device.seenFrom ?? 0;
        let since: number;
        if (Number.isFinite(lastEventId) && lastEventId > 0)
          since = Math.max(lastEventId, Date.now() - CATCH_UP_MS, seenFrom - 1);
        else if (latest && new Date(latest.device_time).getTime() >= seenFrom) {
          since = new Date(latest.device_time).getTime();
          send(liveReading(device.serial, latest), since);
        } else since = Math.max(0, seenFrom - 1);
        // Logout, a revoked sign-in, a changed role or site access, the device moving or leaving:
        // told of it (on whichever process it happened), the stream checks again and ends
        // unless the person still sees this very device.
        const signedIn = streamCaller(ctx, c);
        const recheck = async () => {
          const actor = await signedIn();
          if (!actor) return sink.end();
          const still = await requireVisibleDevice(ctx, actor, device.serial).catch(() => undefined);
          if (still?.id !== device.id) sink.end();
        };
        const unsubscribe = live.subscribe(device, { userId: principal.id, recheck }, since, send, sink.end);
        // Anything stored between reading the latest and following the device is looked at now.
        live.published([device.id]);
        return unsubscribe;
      });
    },
  );
  return app;
}
