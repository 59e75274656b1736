import { useBlocker } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect } from 'react';
import { askToLeave, type UnsavedWork } from '../../machines/unsaved-work/unsaved-work-machine.ts';
import { hasUnsavedWork, isAskingToLeave } from '../../machines/unsaved-work/unsaved-work-selectors.ts';
import { useRuntime } from '../app/runtime-context.tsx';

const LeaveQuestion = lazy(() => import('./leave-question.tsx'));

/**
 * The app's one leave guard, mounted once at the root: the router's blocker asks the register of
 * unsaved work before any navigation to another screen (links, the back button, a typed address;
 * the devices-list refresh asks the same register itself), and this dialog puts the question,
 * naming what would be lost. A reload or closing the tab gets the browser's own question.
 */
export function LeaveGuard() {
  const { unsavedWork } = useRuntime();
  const asking = useSelector(unsavedWork, isAskingToLeave);
  useBlocker({
    // Only a move to another screen loses work; paging or searching on the same one does not.
    shouldBlockFn: async ({ current, next }) =>
      current.pathname !== next.pathname && !(await askToLeave(unsavedWork)),
    enableBeforeUnload: () => hasUnsavedWork(unsavedWork.getSnapshot()),
  });
  // The dialog's code (Mantine's Modal) loads only when a question is put, not with the sign-in screen.
  return asking ? (
    <Suspense fallback={null}>
      <LeaveQuestion />
    </Suspense>
  ) : null;
}

/**
 * Reports work this screen would lose while `pending` holds (a form with edits; a live Bluetooth
 * link), and clears it when it no longer does or the screen goes away.
 * @example useUnsavedWork({ id: 'site-edit', kind: 'form', label: 'Edit site' }, form.formState.isDirty)
 */
export function useUnsavedWork(work: UnsavedWork, pending: boolean): void {
  const { unsavedWork } = useRuntime();
  const { id, kind, label } = work;
  useEffect(() => {
    if (!pending) return;
    unsavedWork.send({ type: 'unsavedWork.report', work: { id, kind, label } });
    return () => unsavedWork.send({ type: 'unsavedWork.clear', id });
  }, [unsavedWork, id, kind, label, pending]);
}
