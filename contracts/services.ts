/**
 * The two services, where they are mounted, who issues their tokens, and the header rules of
 * specification §7 as the app applies them (which paths it sends without a Bearer token or an
 * `api-key`). The services do not read these rules: each registers its public calls before its
 * sign-in middleware; `tests/server/headers-follow-specification.test.ts` checks that both sides
 * agree on every call.
 */

/** The two backends (specification §1): the configuration and the monitoring service. */
export const SERVICE_NAMES = ['config', 'monitoring'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Where the one-process server mounts each service. */
export const SERVICE_MOUNTS: Readonly<Record<ServiceName, string>> = {
  config: '/config',
  monitoring: '/monitoring',
};

/** The `iss` claim of each service's access tokens; neither accepts the other's. */
export const TOKEN_ISSUERS = {
  config: 'fleet-config',
  monitoring: 'fleet-monitoring',
} as const satisfies Record<ServiceName, string>;
export type TokenIssuerName = (typeof TOKEN_ISSUERS)[ServiceName];

/**
 * The public paths of specification §7, matched exactly (no Bearer). Everything under `/auth/` is
 * public too: the v2 sign-in and refresh calls are how a caller gets a token.
 */
export const PUBLIC_PATHS: readonly string[] = [
  '/auth',
  '/users',
  '/users/password',
  '/users/password-reset',
];

/** Prefix of the sign-in calls, public on both services. */
export const AUTH_PREFIX = '/auth/';

/** The path alone: no query, no hash, no trailing slash (the root stays `/`). */
export function normalisePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const withSlash = bare.startsWith('/') ? bare : `/${bare}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') || '/' : withSlash;
}

/**
 * True for the paths that never carry a Bearer token: the four listed public paths and every
 * path under `/auth/`. `/users/12` and `/users/role/admin` are NOT public.
 * @example isPublicPath('/users/password?x=1') === true; isPublicPath('/users/12') === false
 */
export function isPublicPath(path: string): boolean {
  const p = normalisePath(path);
  return PUBLIC_PATHS.includes(p) || p.startsWith(AUTH_PREFIX);
}

/** `api-key` is required on every configuration path that does not contain `/service-comms`. */
export function isServiceCommsPath(path: string): boolean {
  return normalisePath(path).includes('/service-comms');
}
