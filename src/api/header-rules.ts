import type { Service } from '../../machines/storage-keys.ts';
import type { AccessToken } from '../../machines/tokens.ts';

/**
 * Header rules of specification §7, as pure functions of the service and the request path
 * (the part after the service's base URL, e.g. `/fleet/sites/12?x=1`).
 *
 * Public paths, decided precisely: the four paths the specification lists, matched exactly
 * (`/auth`, `/users`, `/users/password`, `/users/password-reset`; a trailing slash, query or hash
 * is ignored), plus everything under `/auth/` — the v2 login and refresh endpoints are how a
 * caller gets a token, so a Bearer there could only be a stale one. `/users/12` or
 * `/users/role/admin` are NOT public: they carry the Bearer.
 */
const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  '/auth',
  '/users',
  '/users/password',
  '/users/password-reset',
]);

/** The path alone: no query, no hash, no trailing slash (the root stays `/`). */
export function normalisePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const withSlash = bare.startsWith('/') ? bare : `/${bare}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') || '/' : withSlash;
}

/** True for the paths that never carry a Bearer token (see the module comment). */
export function isPublicPath(path: string): boolean {
  const p = normalisePath(path);
  return PUBLIC_PATHS.has(p) || p.startsWith('/auth/');
}

/** The firmware endpoint gets no auth headers at all: a path with a `firmware` segment. */
export function isFirmwarePath(path: string): boolean {
  return /(^|\/)firmware(\/|$)/.test(normalisePath(path));
}

/** `api-key` goes on every configuration call whose path does not contain `/service-comms`. */
export function needsApiKey(service: Service, path: string): boolean {
  return service === 'config' && !normalisePath(path).includes('/service-comms') && !isFirmwarePath(path);
}

/** Bearer goes on every path but the public ones and the firmware endpoint. */
export function needsBearer(path: string): boolean {
  return !isPublicPath(path) && !isFirmwarePath(path);
}

export interface HeaderInput {
  service: Service;
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
