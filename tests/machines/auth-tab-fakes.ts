import { fromPromise } from 'xstate';
import type { TokenPair } from '../../contracts/auth.ts';
import type { TabMessage } from '../../machines/auth/auth-tabs.ts';
import type { RefreshToken } from '../../machines/auth/tokens.ts';
import type { Service } from '../../machines/storage-keys.ts';
import type { ChannelLike } from '../../src/features/auth/tab-channel.ts';
import type { LockManagerLike } from '../../src/features/auth/tab-lock.ts';

/**
 * The exclusive Web Locks of one browser, in memory: a request waits while another holds the name,
 * is granted on a later task (as in browsers), and is withdrawn by its abort signal while it waits.
 */
export class FakeLocks implements LockManagerLike {
  private readonly queues = new Map<string, Array<() => void>>();
  private readonly held = new Set<string>();
  /** Names granted so far, in order. */
  readonly grants: string[] = [];

  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.held.add(name);
        this.grants.push(name);
        callback()
          .then(resolve, reject)
          .finally(() => this.release(name));
      };
      const queue = this.queues.get(name) ?? [];
      this.queues.set(name, queue);
      options.signal?.addEventListener('abort', () => {
        const at = queue.indexOf(grant);
        if (at < 0) return;
        queue.splice(at, 1);
        reject(new DOMException('The request was aborted', 'AbortError'));
      });
      queue.push(grant);
      this.pump(name);
    });
  }

  /** Another tab already holds the (free) lock; call the answer to let it go. */
  holdElsewhere(name: string): () => void {
    if (this.held.has(name)) throw new Error(`${name} is already held`);
    this.held.add(name);
    return () => this.release(name);
  }

  isHeld(name: string): boolean {
    return this.held.has(name);
  }

  waiting(name: string): number {
    return this.queues.get(name)?.length ?? 0;
  }

  private release(name: string) {
    this.held.delete(name);
    this.pump(name);
  }

  private pump(name: string) {
    setTimeout(() => {
      if (this.held.has(name)) return;
      const next = this.queues.get(name)?.shift();
      next?.();
    }, 0);
  }
}

/** BroadcastChannels of one origin, in memory: a message reaches every other open channel, later. */
export class FakeChannelHub {
  private readonly open = new Set<FakeChannel>();
  /** Every message posted, by any tab (including `fromSibling`). */
  readonly posted: unknown[] = [];

  readonly opener = (name: string): ChannelLike => {
    const channel = new FakeChannel(name, this);
    this.open.add(channel);
    return channel;
  };

  /** A tab outside the test's machines says something. */
  fromSibling(message: TabMessage): void {
    this.deliver(null, message);
  }

  get openChannels(): number {
    return this.open.size;
  }

  deliver(from: FakeChannel | null, data: unknown): void {
    this.posted.push(data);
    const copy = structuredClone(data);
    for (const channel of this.open) {
      if (channel !== from && (from === null || channel.name === from.name)) {
        setTimeout(() => channel.dispatch(copy), 0);
      }
    }
  }

  close(channel: FakeChannel): void {
    this.open.delete(channel);
  }
}

class FakeChannel implements ChannelLike {
  private readonly listeners: Array<(event: { data: unknown }) => void> = [];
  private closed = false;

  constructor(
    readonly name: string,
    private readonly hub: FakeChannelHub,
  ) {}

  postMessage(message: unknown): void {
    if (this.closed) throw new DOMException('Channel is closed', 'InvalidStateError');
    this.hub.deliver(this, message);
  }

  addEventListener(_type: 'message', listener: (event: { data: unknown }) => void): void {
    this.listeners.push(listener);
  }

  close(): void {
    this.closed = true;
    this.hub.close(this);
  }

  dispatch(data: unknown): void {
    if (this.closed) return;
    for (const listener of this.listeners) listener({ data });
  }
}

/**
 * Refresh-token rotation as the services do it without a grace window: each token is spent once,
 * and presenting a spent one again revokes the whole family (every later token of the session).
 */
export function rotatingTokenServer() {
  let issued = 0;
  const spent = new Set<string>();
  const live = new Set<string>();
  let revoked = false;
  const presented: string[] = [];
  const issue = (service: Service): TokenPair => {
    issued += 1;
    const prefix = service === 'config' ? 'cfg' : 'mon';
    const refresh = `${prefix}-r${issued}`;
    live.add(refresh);
    return { access_token: `${prefix}-a${issued}`, refresh_token: refresh };
  };
  const seed = (service: Service): string => issue(service).refresh_token;
  const refreshTokens = fromPromise<TokenPair, { service: Service; refreshToken: RefreshToken }>(
    async ({ input }) => {
      presented.push(input.refreshToken);
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (spent.has(input.refreshToken)) {
        revoked = true;
        throw new Error('The refresh token was already used; sign in again');
      }
      if (revoked || !live.has(input.refreshToken))
        throw new Error('The refresh token is invalid or expired');
      live.delete(input.refreshToken);
      spent.add(input.refreshToken);
      return issue(input.service);
    },
  );
  return {
    refreshTokens,
    seed,
    presented,
    get revoked() {
      return revoked;
    },
  };
}
