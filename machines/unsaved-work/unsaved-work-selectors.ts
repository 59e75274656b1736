import type { SnapshotFrom } from 'xstate';
import type { UnsavedWork, unsavedWorkMachine } from './unsaved-work-machine.ts';

export type UnsavedWorkSnapshot = SnapshotFrom<typeof unsavedWorkMachine>;

/** True while some screen holds work that leaving it would lose. */
export const hasUnsavedWork = (s: UnsavedWorkSnapshot): boolean => s.context.entries.length > 0;

/** Everything reported, oldest first. */
export const unsavedWork = (s: UnsavedWorkSnapshot): readonly UnsavedWork[] => s.context.entries;

/**
 * What leaving would lose, one sentence per item, for the leave question.
 * @example leaveConsequences(s) // ['“Edit site” has changes that are not saved.', 'The Bluetooth link to HX5K-24-000133 will be closed.']
 */
export function leaveConsequences(s: UnsavedWorkSnapshot): string[] {
  return s.context.entries.map((work) =>
    work.kind === 'bluetooth'
      ? `The Bluetooth link to ${work.label} will be closed.`
      : `“${work.label}” has changes that are not saved.`,
  );
}

/** True while the person is asked whether to leave the screen. */
export const isAskingToLeave = (s: UnsavedWorkSnapshot): boolean => s.matches('asking');
