import type { JWTVerifyGetKey } from 'jose';
import type { Clock } from '../clock.ts';
import {
  type Principal,
  type TokenIssuer,
  type VerifiedToken,
  verifyAccessTokenClaims,
} from './access-tokens.ts';

/**
 * Access tokens already verified, by their exact text, until they expire. A signature check
 * (Ed25519) costs more than the rest of a list call; a token is immutable and carries its own
 * expiry, so the verdict for one string holds until `exp`. Only good tokens are remembered (a
 * flood of bad ones cannot evict them cheaply), and the map is bounded: when full, the oldest
 * entry goes. Expiry is read on `now`, the server's clock.
 */
export class VerifiedTokens {
  readonly #entries = new Map<string, VerifiedToken>();

  constructor(
    readonly keys: JWTVerifyGetKey,
    readonly issuer: TokenIssuer,
    readonly now: Clock,
    readonly capacity = 10_000,
  ) {}

  /** The principal of a valid, unexpired token, or null. */
  async verify(token: string): Promise<Principal | null> {
    return (await this.verifyClaims(token))?.principal ?? null;
  }

  /** The principal and issue time of a valid, unexpired token, or null. */
  async verifyClaims(token: string): Promise<VerifiedToken | null> {
    const known = this.#entries.get(token);
    if (known) {
      if (known.expiresAt * 1000 > this.now()) return known;
      this.#entries.delete(token);
    }
    const verified = await verifyAccessTokenClaims(this.keys, this.issuer, token, this.now);
    if (!verified || verified.expiresAt * 1000 <= this.now()) return null;
    if (this.#entries.size >= this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    Object.freeze(verified.principal);
    Object.freeze(verified);
    this.#entries.set(token, verified);
    return verified;
  }

  /** How many tokens are remembered. */
  get size(): number {
    return this.#entries.size;
  }
}
