import { type AnyEventObject, fromCallback } from 'xstate';
import { siblingEvent, TAB_CHANNEL_NAME, type TabPost } from '../../../machines/auth/auth-tabs.ts';
import type { AuthEvent } from '../../../machines/auth/auth-types.ts';
import { refreshTokenKey } from '../../../machines/storage-keys.ts';

/** The part of `BroadcastChannel` the tab channel uses. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

/** Where `storage` events arrive when there is no BroadcastChannel (`window`). */
export interface StorageEventSource {
  addEventListener(type: 'storage', listener: (event: StorageEvent) => void): void;
  removeEventListener(type: 'storage', listener: (event: StorageEvent) => void): void;
}

export interface TabChannelOptions {
  /** Opens the channel; `name => new BroadcastChannel(name)` in the browser. */
  open?: (name: string) => ChannelLike;
  /** Used only without `open`: a removed refresh token means a sibling signed out. */
  storageEvents?: StorageEventSource;
}

/**
 * The auth machine's `tabChannel` actor: posts what the machine sends it (`tabs.post`) to the other
 * tabs, and sends their messages, checked against `tabMessageSchema`, back as `auth.sibling*` events.
 * The channel is closed when the machine stops.
 *
 * Without BroadcastChannel it falls back to `storage` events, which carry no access tokens: a sibling's
 * sign-out (its refresh tokens removed) still reaches this tab; its new tokens are read from storage at
 * the next refresh.
 *
 * @example
 * authMachine.provide({ actors: { tabChannel: createTabChannel({ open: (n) => new BroadcastChannel(n) }) } });
 */
export function createTabChannel(options: TabChannelOptions) {
  return fromCallback<TabPost>(({ sendBack, receive }) => {
    const deliver = (event: AuthEvent | null) => {
      if (event) sendBack(event as AnyEventObject);
    };
    if (options.open) {
      const channel = options.open(TAB_CHANNEL_NAME);
      channel.addEventListener('message', (message) => deliver(siblingEvent(message.data)));
      receive((post) => channel.postMessage(post.message));
      return () => channel.close();
    }
    const source = options.storageEvents;
    if (!source) return;
    const onStorage = (event: StorageEvent) => {
      const tokenKeys = [refreshTokenKey('config'), refreshTokenKey('monitoring')];
      // `key` is null when a sibling cleared the whole storage.
      if (event.newValue === null && (event.key === null || tokenKeys.includes(event.key))) {
        deliver({ type: 'auth.siblingSignedOut' });
      }
    };
    source.addEventListener('storage', onStorage);
    return () => source.removeEventListener('storage', onStorage);
  });
}

/** The channel options of this browser: BroadcastChannel where it exists, else `storage` events. */
export function browserTabChannel(): TabChannelOptions {
  if (typeof BroadcastChannel !== 'undefined') return { open: (name) => new BroadcastChannel(name) };
  return typeof window === 'undefined' ? {} : { storageEvents: window };
}
