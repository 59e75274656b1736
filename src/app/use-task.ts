import { useActor } from '@xstate/react';
import { fromPromise } from 'xstate';

/** What a task answered, or why it failed: its failure is its output, never the actor's error. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A one-off piece of I/O a view shows the progress of (a read, a report sent), as an actor. */
export type Task<T, I = void> = ReturnType<typeof fromPromise<Settled<T>, I>>;

/** Where a task is, for a view: running, done with its output, or failed with its error. */
export type TaskState<T> =
  | { status: 'active'; output?: undefined; error?: undefined }
  | { status: 'done'; output: T; error?: undefined }
  | { status: 'error'; output?: undefined; error: unknown };

/**
 * The task that runs `run` (its `signal` aborts when the view showing it goes). Made with
 * `fromPromise`, a failure would leave the actor in error, and `useActor` throws that error into
 * the render: the route's error page would replace the whole screen. Here the failure is the
 * task's result, which `useTask` shows in place.
 * @example const load = fromTask(({ signal }) => fetchAudit(api, of, signal));
 */
export function fromTask<T, I = void>(
  run: (args: { input: I; signal: AbortSignal }) => Promise<T>,
): Task<T, I> {
  return fromPromise<Settled<T>, I>(async ({ input, signal }) => {
    try {
      return { ok: true, value: await run({ input, signal }) };
    } catch (error) {
      return { ok: false, error };
    }
  });
}

/**
 * Runs a task for as long as the view shows it (started once, with the first `input`) and answers
 * where it is.
 * @example const state = useTask(load); if (state.status === 'error') …
 */
export function useTask<T, I = void>(task: Task<T, I>, input?: I): TaskState<T> {
  // One signature for tasks with and without input (useActor's own depends on the logic's type).
  const run = useActor as unknown as (
    logic: Task<T, I>,
    options?: { input: I },
  ) => [{ status: string; output?: Settled<T> }];
  const [snapshot] = run(task, input === undefined ? undefined : { input });
  const settled = snapshot.status === 'done' ? snapshot.output : undefined;
  if (!settled) return { status: 'active' };
  return settled.ok ? { status: 'done', output: settled.value } : { status: 'error', error: settled.error };
}
