import { allAppKeys, refreshTokenKey, type Service, STORAGE_KEYS } from '../storage-keys.ts';
import { asRefreshToken, type RefreshToken } from './tokens.ts';

/** What survives a page load: refresh tokens and the current e-mail (never access tokens). */
export interface StoredSession {
  email: string | null;
  configRefreshToken: RefreshToken | null;
  monitoringRefreshToken: RefreshToken | null;
}

/** Reads the stored session; an empty string counts as nothing stored. */
export function readStoredSession(storage: Storage): StoredSession {
  return {
    email: storage.getItem(STORAGE_KEYS.currentEmail) || null,
    configRefreshToken: readRefreshToken(storage, 'config'),
    monitoringRefreshToken: readRefreshToken(storage, 'monitoring'),
  };
}

/** The stored refresh token of `service`, or null. */
export function readRefreshToken(storage: Storage, service: Service): RefreshToken | null {
  const token = storage.getItem(refreshTokenKey(service));
  return token ? asRefreshToken(token) : null;
}

interface SessionTokens {
  email: string | null;
  config: { refreshToken: string | null };
  monitoring: { refreshToken: string | null };
}

/** Writes the refresh tokens and the e-mail; a missing value removes its key. */
export function persistSession(storage: Storage, session: SessionTokens): void {
  const write = (key: string, value: string | null) =>
    value === null ? storage.removeItem(key) : storage.setItem(key, value);
  write(STORAGE_KEYS.currentEmail, session.email);
  write(refreshTokenKey('config'), session.config.refreshToken);
  write(refreshTokenKey('monitoring'), session.monitoring.refreshToken);
}

/** Writes one service's refresh token (after a refresh); null removes it. */
export function persistRefreshToken(storage: Storage, service: Service, token: string | null): void {
  if (token === null) storage.removeItem(refreshTokenKey(service));
  else storage.setItem(refreshTokenKey(service), token);
}

/** Removes both refresh tokens (a failed refresh or sign-in); the e-mail and resume path stay. */
export function clearRefreshTokens(storage: Storage): void {
  storage.removeItem(refreshTokenKey('config'));
  storage.removeItem(refreshTokenKey('monitoring'));
}

/**
 * Logout: removes every key the app wrote (session and caches). Keys of other apps on the same
 * origin are left alone, which is why this is not `storage.clear()`.
 */
export function clearStoredSession(storage: Storage): void {
  for (const key of allAppKeys) storage.removeItem(key);
}
