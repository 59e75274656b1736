import { type ActorRefFrom, assign, setup, waitFor } from 'xstate';

/**
 * Work a screen would lose if the person left it: a form with edits not saved, or a live
 * Bluetooth link that leaving would close. `id` is the reporter's own (one entry per id), `label`
 * names it for the question ("Edit site", "HX5K-24-000133").
 */
export interface UnsavedWork {
  id: string;
  kind: 'form' | 'bluetooth';
  label: string;
}

export type UnsavedWorkEvent =
  | { type: 'unsavedWork.report'; work: UnsavedWork }
  | { type: 'unsavedWork.clear'; id: string }
  /** Someone wants to leave the screen (a link, the back button, the devices-list refresh). */
  | { type: 'leave.ask' }
  | { type: 'leave.stay' }
  | { type: 'leave.go' };

export interface UnsavedWorkContext {
  entries: UnsavedWork[];
  /** The person's answer to the last question. */
  decision: 'stay' | 'leave' | null;
}

/**
 * The app's one leave guard. Forms report while they hold edits and clear when saved, reverted
 * or gone; a Bluetooth session reports while its link is up. Before any navigation away from a
 * screen (the router's blocker, and the devices-list refresh, which goes to landing) the app
 * asks `askToLeave`, which puts the question (`asking`: the view shows what would be lost, with
 * "Stay" and "Leave") and answers the person's choice. It does no I/O.
 */
export const unsavedWorkMachine = setup({
  types: {
    context: {} as UnsavedWorkContext,
    events: {} as UnsavedWorkEvent,
  },
  actions: {
    report: assign(({ context, event }) =>
      event.type === 'unsavedWork.report'
        ? { entries: [...context.entries.filter((entry) => entry.id !== event.work.id), event.work] }
        : {},
    ),
    clear: assign(({ context, event }) =>
      event.type === 'unsavedWork.clear'
        ? { entries: context.entries.filter((entry) => entry.id !== event.id) }
        : {},
    ),
  },
  guards: {
    hasWork: ({ context }) => context.entries.length > 0,
  },
}).createMachine({
  id: 'unsavedWork',
  context: { entries: [], decision: null },
  on: {
    'unsavedWork.report': { actions: 'report' },
    'unsavedWork.clear': { actions: 'clear' },
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'leave.ask': [
          { guard: 'hasWork', target: 'asking', actions: assign({ decision: null }) },
          { actions: assign({ decision: 'leave' }) },
        ],
      },
    },
    asking: {
      on: {
        'leave.stay': { target: 'idle', actions: assign({ decision: 'stay' }) },
        'leave.go': { target: 'idle', actions: assign({ decision: 'leave' }) },
      },
    },
  },
});

/**
 * Whether the person may leave the screen now: at once when nothing would be lost, else after
 * asking them (a question already open is shared). Resolves true for "Leave".
 * @example if (await askToLeave(runtime.unsavedWork)) router.navigate({ to: '/landing', ignoreBlocker: true })
 */
export async function askToLeave(guard: ActorRefFrom<typeof unsavedWorkMachine>): Promise<boolean> {
  if (!guard.getSnapshot().matches('asking')) {
    if (guard.getSnapshot().context.entries.length === 0) return true;
    guard.send({ type: 'leave.ask' });
  }
  const answered = await waitFor(guard, (s) => s.matches('idle'), { timeout: Number.POSITIVE_INFINITY });
  return answered.context.decision === 'leave';
}
