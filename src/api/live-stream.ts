import { fromCallback } from 'xstate';
import { LIVE_EVENTS, liveReadingSchema } from '../../contracts/monitoring.ts';
import type { LiveStreamEvent } from '../../machines/monitoring/live-stream-machine.ts';
import { readEventStream } from './event-stream.ts';
import type { TokenSession } from './token-session.ts';

export interface LiveStreamDeps {
  /** The monitoring service's base URL (`/monitoring`). */
  baseURL: string;
  session: TokenSession;
  /** `globalThis.fetch` by default. */
  fetch?: typeof fetch;
  /** The clock readings' age is measured by; `Date.now` by default. */
  now?: () => number;
}

/**
 * The live stream machine's `stream` actor over `fetch`: `EventSource` cannot send the Bearer
 * token, so the stream is read as text and split into events here. A 401 refreshes the monitoring
 * session once and opens again; 403 and 404 are a refusal; anything else, and the end of the
 * stream, is a close the machine retries. Stopping the actor aborts the request.
 */
export function createLiveStreamActor(deps: LiveStreamDeps) {
  const fetchImpl = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = deps.now ?? Date.now;
  return fromCallback<LiveStreamEvent, { serial: string; lastEventId: string | null }>(
    ({ sendBack, input }) => {
      const controller = new AbortController();
      const run = async () => {
        const outcome = await readEventStream({
          url: `${deps.baseURL.replace(/\/+$/, '')}/devices/${encodeURIComponent(input.serial)}/live`,
          session: deps.session,
          fetch: fetchImpl,
          signal: controller.signal,
          headers: input.lastEventId ? { 'Last-Event-ID': input.lastEventId } : {},
          opened: () => sendBack({ type: 'stream.opened' }),
          onEvent: (event) => {
            if (event.event !== LIVE_EVENTS.reading) return;
            const reading = liveReadingSchema.safeParse(JSON.parse(event.data));
            if (reading.success)
              sendBack({
                type: 'stream.reading',
                reading: reading.data,
                ageMs: now() - Date.parse(reading.data.receivedAt),
              });
          },
        });
        if (outcome.kind === 'refused')
          sendBack({
            type: 'stream.refused',
            message: 'Live values of this device are not available to you.',
          });
        else if (outcome.kind === 'failed')
          sendBack({ type: 'stream.closed', message: `The live stream answered ${outcome.status}.` });
        else sendBack({ type: 'stream.closed', message: 'The live stream ended.' });
      };
      run().catch((error: unknown) => {
        if (controller.signal.aborted) return;
        sendBack({
          type: 'stream.closed',
          message: error instanceof Error ? error.message : 'The live stream failed.',
        });
      });
      return () => controller.abort();
    },
  );
}
