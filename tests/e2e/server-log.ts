import { readFileSync, watch } from 'node:fs';
import { inject } from 'vitest';

/** How long the server under test may take to log what a test waits for. */
const LOG_WAIT_MS = 60_000;

/**
 * Resolves once the output of the server under test satisfies `seen`: looked at now and again on
 * every write to its log (a file watch, no polling). Rejects, naming `what`, if the server has not
 * logged it within a minute.
 * @throws Error against `E2E_BASE_URL`, where there is no log to read
 */
export function serverLogShows(seen: (log: string) => boolean, what: string): Promise<void> {
  const path = inject('serverLogPath');
  if (!path) throw new Error(`the server log is needed to wait for ${what} (not with E2E_BASE_URL)`);
  return new Promise((resolve, reject) => {
    const stop = () => {
      watcher.close();
      clearTimeout(timer);
    };
    const look = () => {
      if (!seen(readFileSync(path, 'utf8'))) return;
      stop();
      resolve();
    };
    const watcher = watch(path, look);
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`the server did not log ${what} within ${LOG_WAIT_MS} ms`));
    }, LOG_WAIT_MS);
    look();
  });
}

/**
 * Resolves once the server under test holds the device's socket: its last word about the device
 * is "is online" (printed once the connection is recorded, so the devices-online call lists it
 * from then on), not "went offline".
 */
export function deviceConnected(serial: string): Promise<void> {
  const said = new RegExp(`^\\[service-comms\\] ${serial} (\\(.*\\) is online|went offline)$`, 'gm');
  return serverLogShows(
    (log) => [...log.matchAll(said)].at(-1)?.[1]?.endsWith('is online') ?? false,
    `${serial} online`,
  );
}
