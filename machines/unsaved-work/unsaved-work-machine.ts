import { assign, setup } from 'xstate';

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
  | { type: 'unsavedWork.clear'; id: string };

/**
 * The one register of unsaved work in the app. Forms report while they hold edits and clear when
 * saved, reverted or gone; a Bluetooth session reports while its link is up. The router's blocker
 * (the app's leave guard) reads it before any navigation, the devices-list refresh included, and
 * asks before work is lost. It does no I/O and never blocks by itself.
 */
export const unsavedWorkMachine = setup({
  types: {
    context: {} as { entries: UnsavedWork[] },
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
}).createMachine({
  id: 'unsavedWork',
  context: { entries: [] },
  on: {
    'unsavedWork.report': { actions: 'report' },
    'unsavedWork.clear': { actions: 'clear' },
  },
});
