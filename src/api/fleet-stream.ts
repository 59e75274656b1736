import { fromCallback } from 'xstate';
import { FLEET_EVENTS, fleetChangeSchema } from '../../contracts/monitoring.ts';
import type { FleetStreamEvent } from '../../machines/monitoring/fleet-live-machine.ts';
import { readEventStream } from './event-stream.ts';
import type { TokenSession } from './token-session.ts';

export interface FleetStreamDeps {
  /** The monitoring service's base URL (`/monitoring`). */
  baseURL: string;
  session: TokenSession;
  /** `globalThis.fetch` by default. */
  fetch?: typeof fetch;
}

/**
 * The fleet live machine's `stream` actor: `GET /monitoring/fleet/live` read over `fetch` with
 * the Bearer token, each `change` event reported with the sites it names. A 401 refreshes the
 * session once; 403 and 404 are a refusal; anything else, and the end of the stream, is a close
 * the machine retries. Stopping the actor aborts the request.
 */
export function createFleetStreamActor(deps: FleetStreamDeps) {
  const fetchImpl = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return fromCallback<FleetStreamEvent>(({ sendBack }) => {
    const controller = new AbortController();
    readEventStream({
      url: `${deps.baseURL.replace(/\/+$/, '')}/fleet/live`,
      session: deps.session,
      fetch: fetchImpl,
      signal: controller.signal,
      opened: () => sendBack({ type: 'stream.opened' }),
      onEvent: (event) => {
        if (event.event !== FLEET_EVENTS.change) return;
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        const change = fleetChangeSchema.safeParse(data);
        if (change.success) sendBack({ type: 'stream.changed', sites: change.data.sites });
      },
    })
      .then((outcome) => {
        if (outcome.kind === 'refused')
          sendBack({ type: 'stream.refused', message: 'Live updates are not available to you.' });
        else
          sendBack({
            type: 'stream.closed',
            message:
              outcome.kind === 'failed'
                ? `The live updates answered ${outcome.status}.`
                : 'The live updates ended.',
          });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        sendBack({
          type: 'stream.closed',
          message: error instanceof Error ? error.message : 'The live updates failed.',
        });
      });
    return () => controller.abort();
  });
}
