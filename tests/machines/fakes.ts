import { fromPromise } from 'xstate';

/** An in-memory `Storage`, so tests can read what the machines wrote. */
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  entries(): Record<string, string> {
    return Object.fromEntries(this.items);
  }
}

export interface PendingCall<TOut, TIn> {
  input: TIn;
  /** Answers the call; the returned promise settles once the machine has taken the answer. */
  resolve: (value: TOut) => Promise<void>;
  /** Fails the call; the returned promise settles once the machine has taken the failure. */
  reject: (error: unknown) => Promise<void>;
  /** True once the test resolved or rejected it. */
  settled: boolean;
}

/**
 * A promise actor the test answers by hand: every start is recorded with its input and stays
 * pending until the test resolves or rejects it. Awaiting `resolve`/`reject` is for checks that
 * nothing happened (a late answer that must be ignored); where a state is expected, wait for it
 * with `waitFor(actor, …)`.
 */
export function controlledActor<TOut, TIn>() {
  const calls: PendingCall<TOut, TIn>[] = [];
  const logic = fromPromise<TOut, TIn>(({ input }) => {
    let answer: (value: TOut) => void = () => {};
    let fail: (error: unknown) => void = () => {};
    const promise = new Promise<TOut>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
    // The actor subscribed to `promise` when it started, before any test could: by the time a
    // test's own subscription runs, the machine has handled the answer.
    const handled = () =>
      promise.then(
        () => undefined,
        () => undefined,
      );
    const call: PendingCall<TOut, TIn> = {
      input,
      settled: false,
      resolve: (value) => {
        call.settled = true;
        answer(value);
        return handled();
      },
      reject: (error) => {
        call.settled = true;
        fail(error);
        return handled();
      },
    };
    calls.push(call);
    return promise;
  });
  /** Calls not answered yet. */
  const pending = () => calls.filter((c) => !c.settled);
  const last = (): PendingCall<TOut, TIn> => {
    const call = calls.at(-1);
    if (!call) throw new Error('the actor was never started');
    return call;
  };
  return { logic, calls, last, pending };
}

/** An unsigned JWT with the given claims; enough for code that only decodes. */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.sig`;
}
