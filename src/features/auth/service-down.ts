import type { Service } from '../../../machines/storage-keys.ts';

/** How a person names each service. */
const SERVICE_NAMES: Record<Service, string> = {
  config: 'configuration',
  monitoring: 'monitoring',
};

/** Statuses that say the service is down or overloaded rather than that the request was wrong. */
const UNAVAILABLE = new Set([502, 503, 504]);

/**
 * What to tell a person when `service` did not answer (`status` 0: connection refused, offline,
 * DNS) or answered that it is unavailable (502, 503, 504): which service, and what to do. Null for
 * any other status, whose server message says more.
 *
 * @example serviceDownMessage('monitoring', 503) // 'The monitoring service is not available right now (HTTP 503). …'
 */
export function serviceDownMessage(service: Service, status: number): string | null {
  const name = SERVICE_NAMES[service];
  if (status === 0) {
    return `The ${name} service cannot be reached. Check that this device is online and try again; if it still fails, tell your administrator that the ${name} service may be down.`;
  }
  if (UNAVAILABLE.has(status)) {
    return `The ${name} service is not available right now (HTTP ${status}). Try again in a few minutes; if it still fails, tell your administrator that the ${name} service is down.`;
  }
  return null;
}
