import { type JWTVerifyGetKey, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { type UserRole, userRoleSchema } from '../../contracts/users.ts';
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
 * Sign a short-lived access token for a user. `sessionId` is the refresh-token family of the
 * sign-in it belongs to (claim `sid`): signing out revokes the family, and with it this token.
 */
export async function signAccessToken(
  key: SigningKey,
  issuer: TokenIssuer,
  user: Principal,
  ttlSeconds: number,
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
      .setIssuedAt(Date.now() / 1000)
      .setExpirationTime(`${ttlSeconds}s`)
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
 * invalid, expired, foreign or without `exp`.
 */
export async function verifyAccessTokenClaims(
  keys: JWTVerifyGetKey,
  issuer: TokenIssuer,
  token: string,
): Promise<VerifiedToken | null> {
  try {
    const { payload } = await jwtVerify(token, keys, { issuer, algorithms: ['EdDSA'] });
    const claims = claimsSchema.parse(payload);
    if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return null;
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

/** Verify a token against a key set (local or remote JWKS); null when invalid, expired or foreign. */
export async function verifyAccessToken(
  keys: JWTVerifyGetKey,
  issuer: TokenIssuer,
  token: string,
): Promise<Principal | null> {
  return (await verifyAccessTokenClaims(keys, issuer, token))?.principal ?? null;
}
