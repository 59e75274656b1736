declare const tokenKind: unique symbol;

/**
 * A service's access token: short-lived, kept in memory only, sent as Bearer. Branded so that it
 * cannot be stored or sent where a refresh token belongs (and the other way round).
 */
export type AccessToken = string & { readonly [tokenKind]: 'access' };

/** A service's refresh token: long-lived, kept in storage, sent only to `/auth/v2/refresh`. */
export type RefreshToken = string & { readonly [tokenKind]: 'refresh' };

/** Marks a token the services answered as an access token. */
export const asAccessToken = (token: string): AccessToken => token as AccessToken;

/** Marks a token the services answered, or storage held, as a refresh token. */
export const asRefreshToken = (token: string): RefreshToken => token as RefreshToken;
