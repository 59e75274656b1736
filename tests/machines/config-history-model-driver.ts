import { expect } from 'vitest';
import { type AnyEventObject, createActor, fromCallback } from 'xstate';
import type { ConfigHistoryEntry } from '../../contracts/config-history.ts';
import {
  configHistoryMachine,
  HISTORY_MESSAGES,
  type HistoryLoad,
  type HistoryWrite,
  type OlderPage,
  type WaitingRecord,
} from '../../machines/ble/config-history-machine.ts';
import { controlledActor } from './fakes.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const SERIAL = 'HX5K-24-000123';
const entry = (n: number, newValue: string): ConfigHistoryEntry => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  serial: SERIAL,
  userId: 3,
  userEmail: 'installer@solarpros.example',
  transport: 'web-bluetooth',
  writtenAt: `2026-01-0${n}T10:00:00.000Z`,
  receivedAt: `2026-01-0${n}T10:00:01.000Z`,
  changes: [{ field: 'workMode', label: 'Work mode', oldValue: '0', newValue }],
});
/** What the service holds: three records, two to a page. */
const OLDEST = entry(1, '1');
const FIRST_PAGE = [entry(3, '3'), entry(2, '2')];
/** A write made without signal, still in the browser's queue. */
const QUEUED: WaitingRecord = {
  id: '00000000-0000-4000-8000-0000000000aa',
  writtenAt: '2026-01-04T09:00:00.000Z',
  transport: 'web-bluetooth',
  changes: [{ field: 'workMode', label: 'Work mode', oldValue: '3', newValue: '4' }],
};
const write = (newValue: string): HistoryWrite => ({
  serialNumber: SERIAL,
  transport: 'web-bluetooth',
  changes: [{ field: 'workMode', label: 'Work mode', oldValue: '3', newValue }],
});

/**
 * Events and state checks that run one path of the configuration-history model against the real
 * machine, its service calls answered by hand from a small record of what the service holds.
 */
export function configHistoryModelDriver(): ModelDriver {
  const loadHistory = controlledActor<HistoryLoad, { serial: string }>();
  const loadOlder = controlledActor<OlderPage, { serial: string; cursor: string }>();
  const recordWrite = controlledActor<unknown, HistoryWrite>();
  let browserOnline: (event: AnyEventObject) => void = () => {};
  const actor = createActor(
    configHistoryMachine.provide({
      actors: {
        loadHistory: loadHistory.logic,
        loadOlder: loadOlder.logic,
        recordWrite: recordWrite.logic,
        watchOnline: fromCallback(({ sendBack }) => {
          browserOnline = sendBack;
          return () => {};
        }),
      },
    }),
    { input: { serial: SERIAL }, inspect: recordCoverage },
  ).start();
  const snap = () => actor.getSnapshot();
  /** Records the service took since the path began, newest first. */
  const sent: ConfigHistoryEntry[] = [];
  let writes = 0;
  let shownBefore: ConfigHistoryEntry[] | null = null;
  const shown = (entries: ConfigHistoryEntry[] | null, error: string | null) => {
    expect(snap().matches('shown')).toBe(true);
    expect(snap().context.entries).toEqual(entries);
    expect(snap().context.error).toBe(error);
  };
  return {
    events: {
      'history.read': () =>
        loadHistory
          .last()
          .resolve({ entries: [...sent, ...FIRST_PAGE], nextCursor: 'page-2', waiting: [], error: null }),
      'history.unreachable': () =>
        loadHistory.last().resolve({
          entries: null,
          nextCursor: null,
          waiting: [QUEUED],
          error: HISTORY_MESSAGES.unreachable,
        }),
      'load.crashes': () => loadHistory.last().reject(new Error('IndexedDB is not available')),
      'network.back': () => browserOnline({ type: 'history.refresh' }),
      'history.refresh': () => actor.send({ type: 'history.refresh' }),
      'history.more': () => {
        shownBefore = snap().context.entries;
        actor.send({ type: 'history.more' });
      },
      // The older page repeats the last entry of the first (a record arrived between the pages).
      'older.read': () =>
        loadOlder
          .last()
          .resolve({ entries: [FIRST_PAGE[1] as ConfigHistoryEntry, OLDEST], nextCursor: null }),
      'older.fails': () => loadOlder.last().reject(new Error('HTTP 502')),
      'history.written': () => {
        writes += 1;
        shownBefore = snap().context.entries;
        actor.send({ type: 'history.written', write: write(`w${writes}`) });
      },
      'record.sent': async () => {
        const call = recordWrite.last();
        sent.unshift({
          ...entry(5, call.input.changes[0]?.newValue ?? ''),
          writtenAt: `2026-01-05T10:0${writes}:00.000Z`,
        });
        await call.resolve(undefined);
      },
      'record.fails': () => recordWrite.last().reject(new Error('The queue could not store the record')),
    },
    states: {
      opening: () => {
        expect(snap().matches('loading')).toBe(true);
        expect(loadHistory.last().input).toEqual({ serial: SERIAL });
        expect(snap().context.entries).toBeNull();
      },
      shown: () => {
        shown(FIRST_PAGE, null);
        expect(snap().can({ type: 'history.more' })).toBe(true);
      },
      offline: () => {
        shown(null, HISTORY_MESSAGES.unreachable);
        expect(snap().context.waiting).toEqual([QUEUED]);
      },
      loadFailed: () => shown(null, HISTORY_MESSAGES.unreachable),
      reloading: () => {
        expect(snap().matches('loading')).toBe(true);
        expect(loadHistory.calls.length).toBeGreaterThan(1);
        expect(loadHistory.last().settled).toBe(false);
      },
      refreshed: () => {
        shown([...sent, ...FIRST_PAGE], null);
        expect(snap().context.waiting).toEqual([]);
      },
      loadingOlder: () => {
        expect(snap().matches('loadingOlder')).toBe(true);
        expect(loadOlder.last().input).toEqual({ serial: SERIAL, cursor: 'page-2' });
      },
      allShown: () => {
        // Each entry once, oldest last; nothing older to ask for.
        shown([...FIRST_PAGE, OLDEST], null);
        expect(snap().can({ type: 'history.more' })).toBe(false);
      },
      olderFailed: () => {
        shown(shownBefore, HISTORY_MESSAGES.olderUnreachable);
        expect(snap().can({ type: 'history.more' })).toBe(true);
      },
      recording: () => {
        expect(snap().matches('recording')).toBe(true);
        expect(recordWrite.last().input).toEqual(write(`w${writes}`));
        expect(snap().context.entries).toEqual(shownBefore);
      },
      recordingTwo: () => {
        expect(snap().matches('recording')).toBe(true);
        // Both writes are on their way to the service or the queue: neither is dropped.
        expect(recordWrite.calls.map((c) => c.input)).toEqual([write('w1'), write('w2')]);
      },
    },
  };
}
