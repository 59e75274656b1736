import { type LiveReading, liveReadingSchema } from '../../contracts/monitoring.ts';

/** A live stream read by the test: the readings as they come, and the status it opened with. */
export interface LiveStream {
  status: number;
  /** The next reading event (waits for it). */
  next(): Promise<LiveReading>;
  /** Every reading received so far. */
  received: LiveReading[];
  /** Settles when the server ends the stream (or the test closes it). */
  ended: Promise<void>;
  close(): void;
}

/**
 * Open `GET /monitoring/devices/{serial}/live` as a browser's fetch would (with the Bearer token),
 * and parse its Server-Sent Events.
 */
export async function openLive(origin: string, serial: string, token: string): Promise<LiveStream> {
  const abort = new AbortController();
  const response = await fetch(`${origin}/monitoring/devices/${serial}/live`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  const received: LiveReading[] = [];
  const waiting: ((reading: LiveReading) => void)[] = [];
  let taken = 0;
  let finish = () => {};
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const stream: LiveStream = {
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
          if (!lines.includes('event: reading')) continue;
          const data = lines
            .filter((l) => l.startsWith('data: '))
            .map((l) => l.slice(6))
            .join('\n');
          const reading = liveReadingSchema.parse(JSON.parse(data));
          received.push(reading);
          waiting[received.length - 1]?.(reading);
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
