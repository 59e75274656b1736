import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface Answer {
  status: number;
  body?: unknown;
}

export type Handler = (request: RecordedRequest) => Answer | Promise<Answer>;

/**
 * A real HTTP server on a free local port. Routes are `'METHOD /path'` (query ignored);
 * anything unrouted answers 404 `{message, code}`. Every request is recorded.
 */
export async function startTestServer(routes: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep the raw text
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body };
      requests.push(recorded);
      const handler = routes[`${recorded.method} ${path}`];
      const answer = handler
        ? await handler(recorded)
        : { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } };
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
