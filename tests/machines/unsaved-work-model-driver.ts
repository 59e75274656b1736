import { expect } from 'vitest';
import { createActor } from 'xstate';
import { unsavedWorkMachine } from '../../machines/unsaved-work/unsaved-work-machine.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const EDIT_SITE = { id: 'site-edit', kind: 'form', label: 'Edit site' } as const;

/** Events and state checks that run one path of the leave-guard model against the real machine. */
export function unsavedWorkModelDriver(): ModelDriver {
  const actor = createActor(unsavedWorkMachine, { inspect: recordCoverage }).start();
  const snap = () => actor.getSnapshot();
  const holds = (entries: number, decision: 'stay' | 'leave' | null) => {
    expect(snap().matches('idle')).toBe(true);
    expect(snap().context.entries).toHaveLength(entries);
    expect(snap().context.decision).toBe(decision);
  };
  return {
    events: {
      'form.edits': () => actor.send({ type: 'unsavedWork.report', work: EDIT_SITE }),
      'form.saved': () => actor.send({ type: 'unsavedWork.clear', id: EDIT_SITE.id }),
      'person.leaves': () => actor.send({ type: 'leave.ask' }),
      'person.stays': () => actor.send({ type: 'leave.stay' }),
      'person.goes': () => actor.send({ type: 'leave.go' }),
    },
    states: {
      empty: () => holds(0, snap().context.decision),
      holding: () => {
        expect(snap().matches('idle')).toBe(true);
        // One entry per form, however often it reports.
        expect(snap().context.entries).toEqual([EDIT_SITE]);
      },
      asking: () => {
        expect(snap().matches('asking')).toBe(true);
        expect(snap().context.entries).toEqual([EDIT_SITE]);
        expect(snap().context.decision).toBeNull();
      },
      stayed: () => holds(1, 'stay'),
      left: () => holds(1, 'leave'),
      leftFree: () => holds(0, 'leave'),
    },
  };
}
