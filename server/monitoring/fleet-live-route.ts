import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { seesEverything } from '../../contracts/access-policy.ts';
import { FLEET_EVENTS, type FleetChange, fleetChangeSchema } from '../../contracts/monitoring.ts';
import { siteVisible } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { streamCaller } from './stream-caller.ts';

/** A comment line every so often keeps proxies and the browser from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;
/** Fleet streams one person may hold open on one process at once (a screen per tab). */
const STREAMS_PER_USER = 10;
/** Events waiting for a client that does not read: past this the stream ends (it reconnects, and looks again). */
const MAX_UNSENT = 50;

/**
 * `GET /fleet/live`: Server-Sent Events, `event: change` with a {@link FleetChange} whenever sites
 * the caller sees change (alarms, devices online, devices or sites added, moved or removed),
 * whichever process changed them; at most one event a quarter second. Nothing is replayed: a
 * client that (re)connects loads what it shows afresh. The stream ends when the access token
 * expires (the client reconnects with a fresh one) and when the server shuts down.
 */
export function fleetLiveRoute(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const open = new Map<number, number>();

  app.get(
    '/fleet/live',
    describeRoute({
      summary: "Which of the caller's sites changed, as they change (Server-Sent Events, event: change)",
      tag: 'monitoring',
      responses: {
        200: {
          description:
            'text/event-stream: `event: change`, `data:` the sites that changed (null: any) as JSON',
          schema: fleetChangeSchema,
        },
        429: { description: 'This person holds too many fleet streams open' },
      },
    }),
    async (c) => {
      const principal = c.get('principal');
      if ((open.get(principal.id) ?? 0) >= STREAMS_PER_USER)
        throw new ApiError(429, 'rate_limited', `At most ${STREAMS_PER_USER} fleet streams at once`);
      c.header('X-Accel-Buffering', 'no');
      open.set(principal.id, (open.get(principal.id) ?? 0) + 1);
      return streamSSE(c, async (stream) => {
        let end = () => {};
        const ended = new Promise<void>((resolve) => {
          end = resolve;
        });
        let chain: Promise<unknown> = Promise.resolve();
        let unsent = 0;
        const send = (sites: number[] | null) => {
          if (unsent >= MAX_UNSENT) return end();
          unsent += 1;
          const change: FleetChange = { sites };
          chain = chain
            .then(() => stream.writeSSE({ event: FLEET_EVENTS.change, data: JSON.stringify(change) }))
            .finally(() => {
              unsent -= 1;
            });
        };
        const unsubscribe = ctx.monitoring.fleet.subscribe({
          viewer: principal.id,
          visible: siteVisible(principal),
          seesEverything: seesEverything(principal),
          send,
          end: () => end(),
        });
        // A sign-out, a revoked or ended sign-in (on whichever process): the stream checks again
        // and ends unless the sign-in still holds with the same reach.
        const signedIn = streamCaller(ctx, c);
        const unwatch = ctx.monitoring.live.watchUser({
          userId: principal.id,
          recheck: async () => {
            const actor = await signedIn();
            if (!actor || seesEverything(actor) !== seesEverything(principal)) end();
          },
          end: () => end(),
        });
        stream.onAbort(end);
        c.req.raw.signal.addEventListener('abort', end);
        // Said at once, so the client knows the stream is open before anything changes.
        chain = chain.then(() => stream.write(': open\n\n'));
        const keepAlive = setInterval(() => {
          chain = chain.then(() => stream.write(': keep-alive\n\n'));
        }, KEEP_ALIVE_MS);
        const expiry = setTimeout(end, Math.max(0, c.get('tokenExpiresAt') * 1000 - Date.now()));
        try {
          await ended;
        } finally {
          unsubscribe();
          unwatch();
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
