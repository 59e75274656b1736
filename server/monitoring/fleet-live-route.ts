import { Hono } from 'hono';
import { seesEverything } from '../../contracts/access-policy.ts';
import { FLEET_EVENTS, type FleetChange, fleetChangeSchema } from '../../contracts/monitoring.ts';
import { siteVisible } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import type { AuthVariables } from '../http/guards.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { personStreams } from './person-streams.ts';
import { streamCaller } from './stream-caller.ts';

/**
 * `GET /fleet/live`: Server-Sent Events, `event: change` with a {@link FleetChange} whenever sites
 * the caller sees change (alarms, devices online, devices or sites added, moved or removed),
 * whichever process changed them; at most one event a quarter second. Nothing is replayed: a
 * client that (re)connects loads what it shows afresh. The stream ends when the access token
 * expires (the client reconnects with a fresh one), when the server shuts down, and within moments
 * of the person signing out or their sign-in being revoked or ended.
 */
export function fleetLiveRoute(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  // Ten a person per process (a screen per tab); past 50 events unread the stream ends (it
  // reconnects, and looks again).
  const openStream = personStreams('fleet', { perUser: 10, maxUnsent: 50 }, ctx.alarm);

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
      return openStream(c, (sink) => {
        const unsubscribe = ctx.monitoring.fleet.subscribe({
          viewer: principal.id,
          visible: siteVisible(principal),
          seesEverything: seesEverything(principal),
          send: (sites) => {
            const change: FleetChange = { sites };
            sink.send({ event: FLEET_EVENTS.change, data: JSON.stringify(change) });
          },
          end: sink.end,
        });
        // A sign-out, a revoked or ended sign-in (on whichever process): the stream checks again
        // and ends unless the sign-in still holds with the same reach.
        const signedIn = streamCaller(ctx, c);
        const unwatch = ctx.monitoring.live.watchUser({
          userId: principal.id,
          recheck: async () => {
            const actor = await signedIn();
            if (!actor || seesEverything(actor) !== seesEverything(principal)) sink.end();
          },
          end: sink.end,
        });
        // Said at once, so the client knows the stream is open before anything changes.
        sink.comment('open');
        return () => {
          unsubscribe();
          unwatch();
        };
      });
    },
  );
  return app;
}
