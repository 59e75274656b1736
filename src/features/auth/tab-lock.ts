import { type AnyEventObject, fromCallback } from 'xstate';
import { refreshLockName } from '../../../machines/auth/auth-tabs.ts';
import type { AuthEvent } from '../../../machines/auth/auth-types.ts';
import type { Service } from '../../../machines/storage-keys.ts';

/** The part of the Web Locks API (`navigator.locks`) the refresh lock uses. */
export interface LockManagerLike {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<unknown>;
}

/**
 * The auth machine's `refreshLock` actor: asks for the exclusive Web Lock of one service's refresh,
 * sends `auth.lockAcquired` once this tab holds it, and keeps it until the machine stops the actor
 * (the refresh is done, failed or abandoned). Stopped before the lock came, it withdraws the request.
 *
 * Without `navigator.locks` (old browsers, jsdom), or when the browser refuses the request, the lock
 * counts as acquired at once: the stored token is still re-read before it is spent.
 *
 * @example
 * authMachine.provide({ actors: { refreshLock: createRefreshLock(navigator.locks) } });
 */
export function createRefreshLock(locks: LockManagerLike | undefined) {
  return fromCallback<AnyEventObject, { service: Service }>(({ sendBack, input }) => {
    const acquired: AuthEvent = { type: 'auth.lockAcquired', service: input.service };
    if (!locks) {
      sendBack(acquired);
      return;
    }
    let stopped = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const withdraw = new AbortController();
    locks
      .request(refreshLockName(input.service), { signal: withdraw.signal }, async () => {
        if (stopped) return;
        sendBack(acquired);
        await held;
      })
      .catch(() => {
        // Withdrawn on purpose (stopped), or the browser refused the lock: go on without it.
        if (!stopped) sendBack(acquired);
      });
    return () => {
      stopped = true;
      withdraw.abort();
      release();
    };
  });
}

/** `navigator.locks` where the browser has it. */
export const browserLocks = (): LockManagerLike | undefined =>
  typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : undefined;
