import type { TokenSession } from './token-session.ts';

/** One Server-Sent Event: its name, id and data lines joined. */
export interface SseEvent {
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

/** How a monitoring event stream went: refused (403, 404), failed to open (any other status), or ended. */
export type StreamOutcome = { kind: 'refused' } | { kind: 'failed'; status: number } | { kind: 'ended' };

/**
 * Opens a monitoring service event stream with the Bearer token (`EventSource` cannot send it, so
 * the stream is read as text and split into events here), refreshing the session once on 401.
 * `opened` is called once the service accepts it, `onEvent` for each event; resolves with how it
 * went. Aborting `signal` stops it (the promise then rejects).
 */
export async function readEventStream(options: {
  url: string;
  session: TokenSession;
  fetch: typeof fetch;
  signal: AbortSignal;
  headers?: Record<string, string>;
  opened: () => void;
  onEvent: (event: SseEvent) => void;
}): Promise<StreamOutcome> {
  const open = (token: string | null) =>
    options.fetch(options.url, {
      signal: options.signal,
      headers: {
        Accept: 'text/event-stream',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...options.headers,
      },
    });
  let response = await open(options.session.getAccessToken('monitoring'));
  if (response.status === 401) response = await open(await options.session.refresh('monitoring'));
  if (response.status === 403 || response.status === 404) return { kind: 'refused' };
  if (!response.ok || !response.body) return { kind: 'failed', status: response.status };
  options.opened();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { kind: 'ended' };
    buffer += value.replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      if (event) options.onEvent(event);
    }
  }
}
