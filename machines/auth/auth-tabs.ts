// valibot rather than zod: the auth machine is part of the sign-in screen's scripts, which a phone
// loads first (see contracts/app-config.ts).
import * as v from 'valibot';
import type { AuthEvent } from './auth-types.ts';

/** A token pair as another tab passes it on (the same shape as `tokenPairSchema` in contracts/auth.ts). */
const tokenPairSchema = v.object({
  access_token: v.pipe(v.string(), v.minLength(1)),
  refresh_token: v.pipe(v.string(), v.minLength(1)),
});

/**
 * What one tab of the app tells the others about the session they share through `localStorage`.
 * Access tokens travel with it (in memory, same origin), so a sibling can use a fresh one instead of
 * spending the stored refresh token again; they are never written to storage.
 */
export const tabMessageSchema = v.variant('kind', [
  v.object({
    kind: v.literal('refreshed'),
    service: v.picklist(['config', 'monitoring']),
    pair: tokenPairSchema,
  }),
  v.object({
    kind: v.literal('signedIn'),
    email: v.pipe(v.string(), v.minLength(1)),
    config: tokenPairSchema,
    monitoring: tokenPairSchema,
  }),
  v.object({ kind: v.literal('signedOut') }),
]);
export type TabMessage = v.InferOutput<typeof tabMessageSchema>;

/** Name of the channel (and prefix of the locks) the tabs of one origin share. */
export const TAB_CHANNEL_NAME = 'fleet.auth';

/** The Web Lock held while `service` refreshes, in whichever tab does it. */
export const refreshLockName = (service: 'config' | 'monitoring') => `${TAB_CHANNEL_NAME}.refresh.${service}`;

/** Event the auth machine sends to its `tabChannel` actor to tell the other tabs something. */
export interface TabPost {
  type: 'tabs.post';
  message: TabMessage;
}

/** The auth machine's event for a message from another tab; null when it is not one. */
export function siblingEvent(data: unknown): AuthEvent | null {
  const parsed = v.safeParse(tabMessageSchema, data);
  if (!parsed.success) return null;
  const message = parsed.output;
  switch (message.kind) {
    case 'refreshed':
      return { type: 'auth.siblingRefreshed', service: message.service, pair: message.pair };
    case 'signedIn':
      return {
        type: 'auth.siblingSignedIn',
        email: message.email,
        config: message.config,
        monitoring: message.monitoring,
      };
    case 'signedOut':
      return { type: 'auth.siblingSignedOut' };
  }
}
