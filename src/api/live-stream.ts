import { fromCallback } from 'xstate';
import { liveReadingSchema } from '../../contracts/monitoring.ts';
import type { LiveStreamEvent } from '../../machines/monitoring/live-stream-machine.ts';
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

/** One Server-Sent Event: its name, id and data lines joined. */
interface SseEvent {
  event: string;
  id: string | null;
  data: string;
}

/** Splits a block of `field: value` lines (one event) into its fields; comments are ignored. */
function parseEvent(block: string): SseEvent | null {
  let event = 'message';
  let id: string | null = null;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { event, id, data: data.join('\n') } : null;
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
      const url = `${deps.baseURL.replace(/\/+$/, '')}/devices/${encodeURIComponent(input.serial)}/live`;
      const open = (token: string | null) =>
        fetchImpl(url, {
          signal: controller.signal,
          headers: {
            Accept: 'text/event-stream',
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            ...(input.lastEventId ? { 'Last-Event-ID': input.lastEventId } : {}),
          },
        });
      const run = async () => {
        let response = await open(deps.session.getAccessToken('monitoring'));
        if (response.status === 401) response = await open(await deps.session.refresh('monitoring'));
        if (response.status === 403 || response.status === 404) {
          sendBack({
            type: 'stream.refused',
            message: 'Live values of this device are not available to you.',
          });
          return;
        }
        if (!response.ok || !response.body) {
          sendBack({ type: 'stream.closed', message: `The live stream answered ${response.status}.` });
          return;
        }
        sendBack({ type: 'stream.opened' });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, '\n');
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            const event = parseEvent(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
            if (event?.event !== 'reading') continue;
            const reading = liveReadingSchema.safeParse(JSON.parse(event.data));
            if (reading.success)
              sendBack({
                type: 'stream.reading',
                reading: reading.data,
                ageMs: now() - Date.parse(reading.data.receivedAt),
              });
          }
        }
        sendBack({ type: 'stream.closed', message: 'The live stream ended.' });
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
