import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { readMachine } from '../../machines/read/read-machine.ts';

/** A one-off read a view shows the progress of (a profile, a device's configuration), as an actor. */
export type Task<T, I = void> = ReturnType<typeof fromPromise<T, I>>;

/**
 * Where a task is, for a view: running, done with its output, or failed with its error; and a way
 * to run it again from the start (with the same input), for "Try again" after a failure.
 */
export type TaskState<T> = (
  | { status: 'active'; output?: undefined; error?: undefined }
  | { status: 'done'; output: T; error?: undefined }
  | { status: 'error'; output?: undefined; error: unknown }
) & { retry: () => void };

/**
 * The task that runs `run` (its `signal` aborts when the view showing it goes).
 * @example const load = fromTask(({ signal }) => fetchAudit(api, of, signal));
 */
export function fromTask<T, I = void>(
  run: (args: { input: I; signal: AbortSignal }) => Promise<T>,
): Task<T, I> {
  return fromPromise<T, I>(({ input, signal }) => run({ input, signal }));
}

/**
 * Runs a task for as long as the view shows it (started once, with the first `input`) and answers
 * where it is. The read machine (`machines/read/read-machine.ts`) holds it: a failure is the
 * state's error, shown in place, never thrown into the render (the route's error page would
 * replace the whole screen).
 * @example const state = useTask(load); if (state.status === 'error') … state.retry()
 */
export function useTask<T, I = void>(task: Task<T, I>, input?: I): TaskState<T> {
  const logic = useMemo(
    () => readMachine.provide({ actors: { read: task as Task<unknown, unknown> } }),
    [task],
  );
  const actor = useActorRef(logic, { input });
  const result = useSelector(actor, (s) => s.context.result);
  const retry = useMemo(() => () => actor.send({ type: 'read.retry' }), [actor]);
  if (!result) return { status: 'active', retry };
  return result.ok
    ? { status: 'done', output: result.value as T, retry }
    : { status: 'error', error: result.error, retry };
}
