import {
  isPublicPath,
  isServiceCommsPath,
  normalisePath,
  type ServiceName,
} from '../../contracts/services.ts';
import type { AccessToken } from '../../machines/auth/tokens.ts';

/**
 * Header rules of specification §7, as pure functions of the service and the request path
 * (the part after the service's base URL, e.g. `/fleet/sites/12?x=1`). Which paths are public is
 * written once in `contracts/services.ts`: the four paths the specification lists, matched
 * exactly, plus everything under `/auth/`. The services register those calls before their
 * sign-in middleware; a server test checks that they ask for exactly these headers.
 */
export { isPublicPath, normalisePath };

/**
 * The specification's firmware endpoint gets no auth headers at all: a path that starts with a
 * `firmware` segment. The fleet's own firmware calls (`/fleet/firmware…`: uploads, images for
 * those who may update a device) carry both, as every signed-in call does.
 */
export function isFirmwarePath(path: string): boolean {
  return /^\/firmware(\/|$)/.test(normalisePath(path));
}

/** `api-key` goes on every configuration call whose path does not contain `/service-comms`. */
export function needsApiKey(service: ServiceName, path: string): boolean {
  return service === 'config' && !isServiceCommsPath(path) && !isFirmwarePath(path);
}

/** Bearer goes on every path but the public ones and the firmware endpoint. */
export function needsBearer(path: string): boolean {
  return !isPublicPath(path) && !isFirmwarePath(path);
}

export interface HeaderInput {
  service: ServiceName;
  path: string;
  apiKey: string;
  /** Current access token of `service`; null sends no Authorization header. */
  accessToken: AccessToken | null;
}

/**
 * The headers the rules put on one request.
 *
 * @example
 * requestHeaders({ service: 'config', path: '/fleet/sites/1', apiKey: 'k', accessToken: 't' })
 * // { 'Content-Type': 'application/json', 'api-key': 'k', Authorization: 'Bearer t' }
 */
export function requestHeaders({ service, path, apiKey, accessToken }: HeaderInput): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (needsApiKey(service, path)) headers['api-key'] = apiKey;
  if (accessToken && needsBearer(path)) headers.Authorization = `Bearer ${accessToken}`;
  return headers;
}
