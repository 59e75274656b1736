import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * The caller's address for rate limits. Without trusted proxies it is the socket's remote address.
 * Behind `trustedProxies` proxies, each of which appends the address it was called from to
 * `X-Forwarded-For`, the client is the entry that many places from the right: everything further
 * left was written by the client and proves nothing.
 * @example with 1 proxy, `X-Forwarded-For: 6.6.6.6, 203.0.113.7` gives `203.0.113.7`
 */
export function addressFrom(
  forwardedFor: string | undefined,
  socketAddress: string | undefined,
  trustedProxies: number,
): string {
  if (trustedProxies > 0) {
    const chain = (forwardedFor ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    // A shorter chain than proxies: the request skipped an outer proxy, and the innermost one's
    // entry (the leftmost) is the nearest address a trusted proxy saw.
    const entry = chain[Math.max(0, chain.length - trustedProxies)];
    if (entry) return entry;
  }
  return socketAddress ?? 'local';
}

/** The caller's address of a Hono request (see {@link addressFrom}). */
export function clientAddress(c: Context, trustedProxies: number): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return addressFrom(c.req.header('x-forwarded-for'), incoming?.socket?.remoteAddress, trustedProxies);
}

/** The caller's address of a Node request, such as a WebSocket upgrade (see {@link addressFrom}). */
export function requestAddress(request: IncomingMessage, trustedProxies: number): string {
  const header = request.headers['x-forwarded-for'];
  return addressFrom(
    Array.isArray(header) ? header.join(',') : header,
    request.socket.remoteAddress,
    trustedProxies,
  );
}
