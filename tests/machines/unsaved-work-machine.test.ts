import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { askToLeave, unsavedWorkMachine } from '../../machines/unsaved-work/unsaved-work-machine.ts';
import {
  hasUnsavedWork,
  isAskingToLeave,
  leaveConsequences,
  unsavedWork,
} from '../../machines/unsaved-work/unsaved-work-selectors.ts';

describe('the register of unsaved work', () => {
  it('holds what forms and Bluetooth sessions report until they clear it, one entry per reporter', () => {
    const actor = createActor(unsavedWorkMachine).start();
    expect(hasUnsavedWork(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'unsavedWork.report', work: { id: 'site-form', kind: 'form', label: 'New site' } });
    actor.send({ type: 'unsavedWork.report', work: { id: 'site-form', kind: 'form', label: 'Edit site' } });
    actor.send({
      type: 'unsavedWork.report',
      work: { id: 'ble', kind: 'bluetooth', label: 'HX5K-24-000133' },
    });
    expect(unsavedWork(actor.getSnapshot()).map((work) => work.id)).toEqual(['site-form', 'ble']);
    expect(leaveConsequences(actor.getSnapshot())).toEqual([
      '“Edit site” has changes that are not saved.',
      'The Bluetooth link to HX5K-24-000133 will be closed.',
    ]);
    actor.send({ type: 'unsavedWork.clear', id: 'site-form' });
    actor.send({ type: 'unsavedWork.clear', id: 'nobody' });
    expect(leaveConsequences(actor.getSnapshot())).toEqual([
      'The Bluetooth link to HX5K-24-000133 will be closed.',
    ]);
    actor.send({ type: 'unsavedWork.clear', id: 'ble' });
    expect(hasUnsavedWork(actor.getSnapshot())).toBe(false);
  });
});

describe('the leave guard', () => {
  const form = { id: 'site-form', kind: 'form' as const, label: 'Edit site' };

  it('lets a person leave at once when nothing would be lost', async () => {
    const actor = createActor(unsavedWorkMachine).start();
    expect(await askToLeave(actor)).toBe(true);
    expect(isAskingToLeave(actor.getSnapshot())).toBe(false);
  });

  it('asks when work would be lost, and answers the choice; two askers share one question', async () => {
    const actor = createActor(unsavedWorkMachine).start();
    actor.send({ type: 'unsavedWork.report', work: form });
    const first = askToLeave(actor);
    const second = askToLeave(actor);
    expect(isAskingToLeave(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'leave.stay' });
    expect(await first).toBe(false);
    expect(await second).toBe(false);
    const again = askToLeave(actor);
    actor.send({ type: 'leave.go' });
    expect(await again).toBe(true);
  });
});
