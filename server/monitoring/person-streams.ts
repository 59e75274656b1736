import type { Context } from 'hono';
import { type SSEMessage, streamSSE } from 'hono/streaming';
import type { Alarm } from '../clock.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';

/** A comment line every so often keeps proxies and the browser from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

/** Where a stream writes: events and comments in order, and its end. */
export interface EventSink {
  /** Queues an event; a client that leaves too many unread ends its stream (it reconnects). */
  send(message: SSEMessage): void;
  /** Queues a comment line (`: text`). */
  comment(text: string): void;
  /** Ends the stream. */
  end(): void;
}

/**
 * The Server-Sent Events streams of one route, each held by one signed-in person: at most
 * `perUser` at once per person on this process (429 `rate_limited` beyond), a keep-alive comment
 * every 15 s, an end when the access token expires (woken by `alarm`, on the server's clock), when
 * the client goes, when `maxUnsent` events wait for a client that does not read, or when the
 * route's own `start` says so. `start` follows whatever the stream tells and answers how to stop
 * following it.
 */
export function personStreams(kind: string, limits: { perUser: number; maxUnsent: number }, alarm: Alarm) {
  const open = new Map<number, number>();
  return async function openStream(
    c: Context<{ Variables: AuthVariables }>,
    start: (sink: EventSink) => () => void,
  ): Promise<Response> {
    const { id } = c.get('principal');
    if ((open.get(id) ?? 0) >= limits.perUser)
      throw new ApiError(429, 'rate_limited', `At most ${limits.perUser} ${kind} streams at once`);
    c.header('X-Accel-Buffering', 'no');
    open.set(id, (open.get(id) ?? 0) + 1);
    return streamSSE(c, async (stream) => {
      let end = () => {};
      const ended = new Promise<void>((resolve) => {
        end = resolve;
      });
      let chain: Promise<unknown> = Promise.resolve();
      let unsent = 0;
      const sink: EventSink = {
        send: (message) => {
          if (unsent >= limits.maxUnsent) return end();
          unsent += 1;
          chain = chain
            .then(() => stream.writeSSE(message))
            .finally(() => {
              unsent -= 1;
            });
        },
        comment: (text) => {
          chain = chain.then(() => stream.write(`: ${text}\n\n`));
        },
        end: () => end(),
      };
      stream.onAbort(end);
      c.req.raw.signal.addEventListener('abort', end);
      const keepAlive = setInterval(() => sink.comment('keep-alive'), KEEP_ALIVE_MS);
      const stopExpiry = alarm(c.get('tokenExpiresAt') * 1000, end);
      let stop = () => {};
      try {
        stop = start(sink);
        await ended;
      } finally {
        stop();
        clearInterval(keepAlive);
        stopExpiry();
        const left = (open.get(id) ?? 1) - 1;
        if (left > 0) open.set(id, left);
        else open.delete(id);
      }
    });
  };
}
