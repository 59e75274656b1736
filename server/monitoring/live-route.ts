import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import {
  LIVE_EVENTS,
  type LiveReading,
  liveReadingSchema,
  serialParamsSchema,
} from '../../contracts/monitoring.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { requireVisibleDevice } from './monitoring-scope.ts';
import { streamCaller } from './stream-caller.ts';
import { liveReading } from './telemetry/live-feed.ts';

/** A comment line every so often keeps proxies and the browser from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;
/** Streams one person may hold open on one process at once. */
const STREAMS_PER_USER = 10;
/** A reconnecting stream (Last-Event-ID) catches up on at most the last hour. */
const CATCH_UP_MS = 3_600_000;
/** Events waiting for a client that does not read: past this the stream ends (it reconnects and catches up). */
const MAX_UNSENT = 200;

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
  const open = new Map<number, number>();

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
      if ((open.get(principal.id) ?? 0) >= STREAMS_PER_USER)
        throw new ApiError(429, 'rate_limited', `At most ${STREAMS_PER_USER} live streams at once`);
      const lastEventId = Number(c.req.header('last-event-id'));
      const { live } = ctx.monitoring;
      const latest = await ctx.db
        .selectFrom('telemetry_latest')
        .select(['device_id', 'device_time', 'received_at', 'flags', 'vals'])
        .where('device_id', '=', device.id)
        .executeTakeFirst();
      c.header('X-Accel-Buffering', 'no');
      open.set(principal.id, (open.get(principal.id) ?? 0) + 1);
      return streamSSE(c, async (stream) => {
        let end = () => {};
        const ended = new Promise<void>((resolve) => {
          end = resolve;
        });
        let chain: Promise<unknown> = Promise.resolve();
        let unsent = 0;
        const send = (reading: LiveReading, at: number) => {
          if (unsent >= MAX_UNSENT) return end();
          unsent += 1;
          chain = chain
            .then(() =>
              stream.writeSSE({ event: LIVE_EVENTS.reading, id: String(at), data: JSON.stringify(reading) }),
            )
            .finally(() => {
              unsent -= 1;
            });
        };
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
          if (!actor) return end();
          const still = await requireVisibleDevice(ctx, actor, device.serial).catch(() => undefined);
          if (still?.id !== device.id) end();
        };
        const unsubscribe = live.subscribe(device, { userId: principal.id, recheck }, since, send, () =>
          end(),
        );
        // Anything stored between reading the latest and following the device is looked at now.
        live.published([device.id]);
        stream.onAbort(end);
        c.req.raw.signal.addEventListener('abort', end);
        const keepAlive = setInterval(() => {
          chain = chain.then(() => stream.write(': keep-alive\n\n'));
        }, KEEP_ALIVE_MS);
        const expiry = setTimeout(end, Math.max(0, c.get('tokenExpiresAt') * 1000 - Date.now()));
        try {
          await ended;
        } finally {
          unsubscribe();
          clearInterval(keepAlive);
          clearTimeout(expiry);
          const left = (open.get(principal.id) ?? 1) - 1;
          if (left > 0) open.set(principal.id, left);
          else open.delete(principal.id);
        }
      });
    },
  );
  return app;
}
