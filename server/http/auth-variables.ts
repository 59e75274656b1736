import type { Actor } from '../../contracts/access-policy.ts';
import type { Principal } from '../auth/access-tokens.ts';

/** The signed-in user of a request, with what the access policy asks of them (`staff`, and `key` when an API key made the call). */
export type Caller = Principal & Actor;

/** Hono variables set by the guards. */
export interface AuthVariables {
  principal: Caller;
  /** When the Bearer token of the request expires, seconds since 1970 (a stream ends then). */
  tokenExpiresAt: number;
  /** When it was issued, and the sign-in it belongs to: a live stream checks them again. */
  tokenIssuedAt: number;
  sessionId: string | undefined;
  /** Set when the call came with an API key (`Authorization: Bearer fm_pat_…`): which key. */
  apiKeyId: string | undefined;
}
