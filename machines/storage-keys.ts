import type { ServiceName } from '../contracts/services.ts';

/**
 * Names of everything the app keeps in `localStorage`. One place, so that
 * logout can clear exactly what the app wrote and nothing else on the origin.
 */

/** The two backends the app signs in to. */
export type Service = ServiceName;

/** Session keys (specification §3, "Local storage keys"). */
export const STORAGE_KEYS = {
  /** E-mail of the signed-in user. */
  currentEmail: 'fleet.currentEmail',
  /** Path a guarded route wanted before the user was sent to sign in. */
  resumePath: 'fleet.resumePath',
  /** Refresh token of the configuration service. */
  configRefreshToken: 'fleet.config.refreshToken',
  /** Refresh token of the monitoring service. */
  monitoringRefreshToken: 'fleet.monitoring.refreshToken',
} as const;

/** Cache keys (specification §3, "Local cache keys"). */
export const CACHE_KEYS = {
  catalogue: 'fleet.cache.devicesList',
  e1Catalogue: 'fleet.cache.devicesListE1',
  convertList: 'fleet.cache.convertList',
  deviceSerial: 'fleet.cache.deviceSerial',
  modelNumber: 'fleet.cache.modelNumber',
  selectedDevice: 'fleet.cache.selectedDevice',
} as const;

/** The storage key holding the refresh token of `service`. */
export function refreshTokenKey(service: Service): string {
  return service === 'config' ? STORAGE_KEYS.configRefreshToken : STORAGE_KEYS.monitoringRefreshToken;
}

/**
 * Names of what the app keeps in `sessionStorage`: this tab only, kept across a reload and a
 * phone restoring a page it dropped.
 */
export const SESSION_KEYS = {
  /** The e-mail of a "Choose your password" step that is open, so that a reload comes back to it. */
  codeStepEmail: 'fleet.codeStep.email',
} as const;

/** Every key the app writes; logout removes all of them. */
export const allAppKeys: readonly string[] = [...Object.values(STORAGE_KEYS), ...Object.values(CACHE_KEYS)];
