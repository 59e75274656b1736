import { type JWTVerifyGetKey, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { type UserRole, userRoleSchema } from '../../contracts/users.ts';
import type { Clock } from '../clock.ts';
import type { SigningKey } from './signing-keys.ts';

/** Who a verified access token speaks for. */
export interface Principal {
  id: number;
  email: string;
  name: string;
  role: UserRole;
}

const claimsSchema = z.object({
  sub: z.string().regex(/^\d+$/),
  email: z.string(),
  name: z.string(),
  role: userRoleSchema,
  /** The sign-in (refresh-token family) the token belongs to; absent for the older password sign-in. */
  sid: z.uuid().optional(),
});

/** Issuer names: configuration tokens and monitoring tokens never pass for each other. */
export type TokenIssuer = 'fleet-config' | 'fleet-monitoring';

/**
 * Sign a short-lived access token for a user, issued at `now` (the server's clock, milliseconds
 * since the epoch) and expiring `ttlSeconds` after the whole second it was issued in. `sessionId`
 * is the refresh-token family of the sign-in it belongs to (claim `sid`): signing out revokes the
 * family, and with it this token.
 */
export async function signAccessToken(
  key: SigningKey,
  issuer: TokenIssuer,
  user: Principal,
  ttlSeconds: number,
  now: number,
  sessionId?: string,
): Promise<string> {
  return (
    new SignJWT({
      email: user.email,
      name: user.name,
      role: user.role,
      ...(sessionId ? { sid: sessionId } : {}),
    })
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'at+jwt' })
      .setSubject(String(user.id))
      .setIssuer(issuer)
      // Milliseconds (RFC 7519 allows a fractional NumericDate): a token issued just after a
      // password change must not fall in the same second as the cut-off and be refused.
      .setIssuedAt(now / 1000)
      .setExpirationTime(Math.floor(now / 1000) + ttlSeconds)
      .sign(key.privateKey)
  );
}

/** A verified access token: who it speaks for, when it was issued and when it expires (seconds since the epoch). */
export interface VerifiedToken {
  principal: Principal;
  issuedAt: number;
  expiresAt: number;
  /** The sign-in (refresh-token family) it belongs to, when it has one. */
  sessionId?: string;
}

/**
 * Verify a token against a key set (local or remote JWKS) and read its expiry; null when
 * invalid, expired by `now` (the server's clock), foreign or without `exp`.
 */
export async function verifyAccessTokenClaims(
  keys: JWTVerifyGetKey,
  issuer: TokenIssuer,
  token: string,
  now: Clock,
): Promise<VerifiedToken | null> {
  try {
    const at = now();
    const { payload } = await jwtVerify(token, keys, {
      issuer,
      algorithms: ['EdDSA'],
      currentDate: new Date(at),
    });
    const claims = claimsSchema.parse(payload);
    // jose compares in whole seconds: the token is good up to the millisecond it expires.
    if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number' || payload.exp * 1000 <= at)
      return null;
    return {
      principal: { id: Number(claims.sub), email: claims.email, name: claims.name, role: claims.role },
      issuedAt: payload.iat,
      expiresAt: payload.exp,
      ...(claims.sid ? { sessionId: claims.sid } : {}),
    };
  } catch {
    return null;
  }
}
