import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Headers that only ask for another protocol: dropped when a request is served as plain HTTP/1.1. */
const UPGRADE_ONLY = new Set(['upgrade', 'http2-settings']);

/** The request's head as HTTP/1.1 would have sent it without asking to upgrade. */
function plainHead(request: IncomingMessage): Buffer {
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    const value = raw[i + 1] ?? '';
    const lower = name.toLowerCase();
    if (UPGRADE_ONLY.has(lower)) continue;
    if (lower === 'connection') {
      const kept = value
        .split(',')
        .map((token) => token.trim())
        .filter((token) => token !== '' && !UPGRADE_ONLY.has(token.toLowerCase()));
      if (kept.length > 0) lines.push(`${name}: ${kept.join(', ')}`);
      continue;
    }
    lines.push(`${name}: ${value}`);
  }
  // The parser read the head as latin1 and refused CR and LF in it: written back byte for byte.
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/**
 * Serving a request that asked to upgrade (`Upgrade: h2c` from `curl --http2`, `Upgrade:
 * websocket` on the wrong path) as the plain HTTP/1.1 request it also is, on the same connection:
 * a client may not insist on a protocol change (RFC 9110 §7.8). Node hands every request with an
 * `Upgrade` header to the `upgrade` listeners once there is one (the device socket's); the
 * function this answers writes the request's head again without the upgrade headers and hands
 * the connection back to the server, so the request reaches the routes like any other, body and
 * keep-alive included. A request pipelined behind one still being answered waits for that answer.
 * @example server.on('upgrade', (req, socket, head) => isDeviceSocket(req) ? … : plain(req, socket, head))
 */
export function plainHttpFallback(
  server: Server,
): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const answering = new WeakMap<Duplex, ServerResponse>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    answering.set(request.socket, response);
  });
  return (request, socket, head) => {
    const serve = () => {
      socket.unshift(Buffer.concat([plainHead(request), head]));
      server.emit('connection', socket);
    };
    const earlier = answering.get(socket);
    if (earlier && !earlier.writableFinished) earlier.once('finish', () => setImmediate(serve));
    else serve();
  };
}
