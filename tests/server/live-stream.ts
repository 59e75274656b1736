import type { z } from 'zod';
import {
  type FleetChange,
  fleetChangeSchema,
  type LiveReading,
  liveReadingSchema,
} from '../../contracts/monitoring.ts';

/** An event stream read by the test: its events as they come, and the status it opened with. */
export interface EventStream<T> {
  status: number;
  /** The next event (waits for it). */
  next(): Promise<T>;
  /** Every event received so far. */
  received: T[];
  /** Settles when the server ends the stream (or the test closes it). */
  ended: Promise<void>;
  close(): void;
}

export type LiveStream = EventStream<LiveReading>;

/** Open an event stream of the monitoring service as a browser's fetch would (with the Bearer token). */
async function openEvents<T>(
  url: string,
  token: string,
  event: string,
  schema: z.ZodType<T>,
): Promise<EventStream<T>> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  const received: T[] = [];
  const waiting: ((item: T) => void)[] = [];
  let taken = 0;
  let finish = () => {};
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const stream: EventStream<T> = {
    status: response.status,
    received,
    ended,
    next: () =>
      new Promise((resolve) => {
        const index = taken++;
        const ready = received[index];
        if (ready) resolve(ready);
        else waiting[index] = resolve;
      }),
    close: () => abort.abort(),
  };
  if (response.status !== 200 || !response.body) {
    await response.body?.cancel();
    finish();
    return stream;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          if (!lines.includes(`event: ${event}`)) continue;
          const data = lines
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          const item = schema.parse(JSON.parse(data));
          received.push(item);
          waiting[received.length - 1]?.(item);
        }
      }
    } catch {
      // closed by the test
    } finally {
      finish();
    }
  })();
  return stream;
}

/** `GET /monitoring/devices/{serial}/live`: a device's readings. */
export function openLive(origin: string, serial: string, token: string): Promise<LiveStream> {
  return openEvents(`${origin}/monitoring/devices/${serial}/live`, token, 'reading', liveReadingSchema);
}

/** `GET /monitoring/fleet/live`: the caller's sites that changed. */
export function openFleet(origin: string, token: string): Promise<EventStream<FleetChange>> {
  return openEvents(`${origin}/monitoring/fleet/live`, token, 'change', fleetChangeSchema);
}
