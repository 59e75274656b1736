import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { Env } from '../env.ts';

type Fetch = (request: Request) => Response | Promise<Response>;

/** The HTTP timeouts of the environment, in milliseconds as Node takes them. */
export function httpTimeouts(
  env: Pick<Env, 'HTTP_KEEP_ALIVE_TIMEOUT_S' | 'HTTP_HEADERS_TIMEOUT_S' | 'HTTP_REQUEST_TIMEOUT_S'>,
) {
  return {
    keepAliveTimeout: env.HTTP_KEEP_ALIVE_TIMEOUT_S * 1000,
    headersTimeout: env.HTTP_HEADERS_TIMEOUT_S * 1000,
    requestTimeout: env.HTTP_REQUEST_TIMEOUT_S * 1000,
  };
}

/**
 * Serve `fetch` over HTTP/1.1 with the environment's timeouts (README, configuration): an idle
 * kept-alive connection stays open longer than a balancer keeps its own (so the balancer, not the
 * server, closes it, and never while sending on it), a client's headers must arrive within
 * `HTTP_HEADERS_TIMEOUT_S` and its whole request within `HTTP_REQUEST_TIMEOUT_S`. The answer
 * itself has no limit: live streams last as long as their token.
 * @example const http = listen(app.fetch, { port: 8080 }, env, () => console.log('listening'))
 */
export function listen(
  fetch: Fetch,
  address: { port: number; hostname?: string },
  env: Parameters<typeof httpTimeouts>[0],
  onListening?: () => void,
): Server {
  const { keepAliveTimeout, headersTimeout, requestTimeout } = httpTimeouts(env);
  const server = serve(
    { fetch, ...address, serverOptions: { headersTimeout, requestTimeout } },
    onListening,
  ) as Server;
  server.keepAliveTimeout = keepAliveTimeout;
  return server;
}
