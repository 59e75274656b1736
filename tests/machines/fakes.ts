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
  resolve: (value: TOut) => void;
  reject: (error: unknown) => void;
  /** True once the test resolved or rejected it. */
  settled: boolean;
}

/**
 * A promise actor the test answers by hand: every start is recorded with its input and stays
 * pending until the test resolves or rejects it.
 */
export function controlledActor<TOut, TIn>() {
  const calls: PendingCall<TOut, TIn>[] = [];
  const logic = fromPromise<TOut, TIn>(
    ({ input }) =>
      new Promise<TOut>((resolve, reject) => {
        const call: PendingCall<TOut, TIn> = {
          input,
          settled: false,
          resolve: (value) => {
            call.settled = true;
            resolve(value);
          },
          reject: (error) => {
            call.settled = true;
            reject(error);
          },
        };
        calls.push(call);
      }),
  );
  /** Calls not answered yet. */
  const pending = () => calls.filter((c) => !c.settled);
  const last = (): PendingCall<TOut, TIn> => {
    const call = calls.at(-1);
    if (!call) throw new Error('the actor was never started');
    return call;
  };
  return { logic, calls, last, pending };
}

/** Lets pending promise callbacks run (actor results are delivered on the microtask queue). */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** An unsigned JWT with the given claims; enough for code that only decodes. */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.sig`;
}
