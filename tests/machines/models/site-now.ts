import { expect } from 'vitest';
import { createActor, createMachine, SimulatedClock } from 'xstate';
import type { SiteNow } from '../../../contracts/monitoring.ts';
import { SITE_NOW_REFRESH_MS, siteNowMachine } from '../../../machines/monitoring/site-now-machine.ts';
import { controlledActor } from '../fakes.ts';
import { recordCoverage } from '../paths/coverage-recorder.ts';
import { defineModel, type ModelDriver } from '../paths/model-entry.ts';

/**
 * Abstract model of a site's power flow and energy today: read, shown and read again every 10 s;
 * a failure says why, keeps the figures shown, and is tried again after the wait or on a press.
 */
const model = createMachine({
  id: 'siteNowModel',
  initial: 'loading',
  states: {
    loading: { on: { 'figures.arrive': 'shown', 'read.fails': 'failed' } },
    shown: { on: { 'wait.passes': 'refreshing' } },
    refreshing: { on: { 'figures.arrive': 'shownAgain', 'read.fails': 'failedWithFigures' } },
    shownAgain: {},
    failed: { on: { 'retry.pressed': 'retrying', 'wait.passes': 'retrying' } },
    failedWithFigures: { on: { 'wait.passes': 'refreshingAfterFailure' } },
    retrying: { on: { 'figures.arrive': 'shown' } },
    refreshingAfterFailure: { on: { 'figures.arrive': 'shownAgain' } },
  },
});

const SITE = 5;
const MESSAGE = 'The monitoring service is not answering.';

/** Events and state checks that run one path against the real machine, its reads answered by hand. */
function driver(): ModelDriver {
  const load = controlledActor<SiteNow, { siteId: number }>();
  const clock = new SimulatedClock();
  const actor = createActor(siteNowMachine.provide({ actors: { load: load.logic } }), {
    input: { siteId: SITE },
    clock,
    inspect: recordCoverage,
  }).start();
  const snap = () => actor.getSnapshot();
  let reads = 0;
  let shown: SiteNow | null = null;
  let error: string | null = null;
  const figures = (): SiteNow => {
    reads += 1;
    return {
      siteId: SITE,
      timeZone: 'America/Chicago',
      at: new Date(Date.UTC(2026, 2, 4, 18, 0, reads * 10)).toISOString(),
      devices: 1,
      reporting: 1,
      power: { production: 100 * reads, consumption: 500, grid: 400 - 100 * reads, battery: 0, soc: 50 },
      today: {
        day: '2026-03-04',
        from: '2026-03-04T06:00:00.000Z',
        producedKwh: reads,
        consumedKwh: 2,
        importedKwh: 1,
        exportedKwh: 0,
        chargedKwh: 0,
        dischargedKwh: 0,
        selfConsumption: 100,
        autarky: 50,
      },
    };
  };
  const reading = () => {
    expect(snap().value).toBe('loading');
    expect(load.last().settled).toBe(false);
    expect(load.last().input).toEqual({ siteId: SITE });
    // The figures shown before stay while the next read is on its way.
    expect(snap().context.now).toEqual(shown);
  };
  const showing = () => {
    expect(snap().value).toBe('shown');
    expect(snap().context).toEqual({ siteId: SITE, now: shown, error: null });
  };
  const failing = () => {
    expect(snap().value).toBe('failed');
    expect(snap().context).toEqual({ siteId: SITE, now: shown, error });
  };
  return {
    events: {
      'figures.arrive': async () => {
        shown = figures();
        error = null;
        await load.last().resolve(shown);
      },
      'read.fails': async () => {
        error = MESSAGE;
        await load.last().reject(new Error(MESSAGE));
      },
      // The next read starts 10 s after the last ended, and not one millisecond sooner.
      'wait.passes': () => {
        const before = load.calls.length;
        clock.increment(SITE_NOW_REFRESH_MS - 1);
        expect(load.calls.length).toBe(before);
        clock.increment(1);
        expect(load.calls.length).toBe(before + 1);
      },
      'retry.pressed': () => actor.send({ type: 'now.retry' }),
    },
    states: {
      loading: reading,
      refreshing: reading,
      retrying: reading,
      refreshingAfterFailure: reading,
      shown: showing,
      shownAgain: () => {
        showing();
        expect(reads).toBeGreaterThan(1);
      },
      failed: () => {
        failing();
        expect(shown).toBeNull();
      },
      failedWithFigures: () => {
        failing();
        expect(shown).not.toBeNull();
      },
    },
  };
}

export default defineModel({
  name: 'site-now',
  title: "A site's power flow now and energy today (site details)",
  source: 'machines/monitoring/site-now-machine.ts',
  about:
    'The figures are read, shown and read again every 10 s; a failed read says why while the last figures stay, and is tried again after 10 s or when the person presses Try again.',
  machine: siteNowMachine,
  model,
  driver,
  events: {
    'figures.arrive': "The service answers the site's power by role and energy today.",
    'read.fails': 'The read fails (the service is down, the connection lost).',
    'wait.passes': '10 s pass after the last read ended (and not one millisecond less).',
    'retry.pressed': 'The person presses Try again.',
  },
  states: {
    loading: 'The page opened: the first figures are on their way, a loader shown.',
    shown: 'The power flow and the energy balance are shown.',
    refreshing: 'The next figures are on their way; the ones shown stay.',
    shownAgain: 'The newer figures replaced the ones shown.',
    failed: 'Nothing to show yet: the reason and Try again.',
    failedWithFigures: 'The last figures stay, with the reason they could not be read again.',
    retrying: 'Read again after a failure; nothing shown yet.',
    refreshingAfterFailure: 'Read again after the wait; the last figures stay meanwhile.',
  },
});
