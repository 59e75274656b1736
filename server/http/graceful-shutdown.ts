import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** How long requests in flight may run on after a SIGTERM before their connections are cut. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** What a shutdown did: how many requests were still running when it began, and if all finished. */
export interface ShutdownReport {
  inFlight: number;
  finished: boolean;
}

/**
 * Track the requests a server is answering, and build the function that stops it: stop accepting
 * connections, let the requests in flight finish (at most `graceMs`), answer them with
 * `Connection: close` so kept-alive clients do not send more, cut what is left, then run
 * `closeResources` (the database) — never before the last request is done with it. Calling the
 * returned function again returns the same shutdown.
 * @example
 * const stop = drainOnShutdown(http, () => fleet.close());
 * process.once('SIGTERM', () => stop().then(() => process.exit(0)));
 */
export function drainOnShutdown(
  server: Server,
  closeResources: () => Promise<void>,
  graceMs = SHUTDOWN_GRACE_MS,
  /** Ends answers that would never finish by themselves (live streams), as the drain begins. */
  endStreams: () => void = () => {},
): () => Promise<ShutdownReport> {
  const active = new Set<ServerResponse>();
  let draining = false;
  let allDone: (() => void) | undefined;
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    active.add(response);
    if (draining && !response.headersSent) response.setHeader('connection', 'close');
    response.once('close', () => {
      active.delete(response);
      if (draining && active.size === 0) allDone?.();
    });
  });

  let shutdown: Promise<ShutdownReport> | undefined;
  const run = async (): Promise<ShutdownReport> => {
    draining = true;
    const inFlight = active.size;
    for (const response of active) if (!response.headersSent) response.setHeader('connection', 'close');
    // Stops listening; also closes the kept-alive connections that have no request running.
    server.close();
    server.closeIdleConnections();
    endStreams();
    const finished = await new Promise<boolean>((resolve) => {
      if (active.size === 0) return resolve(true);
      const timer = setTimeout(() => resolve(false), graceMs);
      allDone = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    server.closeAllConnections();
    await closeResources();
    return { inFlight, finished };
  };
  return () => {
    shutdown ??= run();
    return shutdown;
  };
}
