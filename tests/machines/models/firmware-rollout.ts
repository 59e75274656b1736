import { expect } from 'vitest';
import { createActor, createMachine, SimulatedClock, waitFor } from 'xstate';
import type { Rollout, RolloutState } from '../../../contracts/firmware.ts';
import {
  ROLLOUT_POLL_MS,
  rolloutMachine,
  type SteerAction,
} from '../../../machines/firmware/rollout-machine.ts';
import { controlledActor } from '../fakes.ts';
import { recordCoverage } from '../paths/coverage-recorder.ts';
import { defineModel, type ModelDriver } from '../paths/model-entry.ts';

/**
 * Abstract model of a rollout's page: read again each second while the rollout moves, settled
 * once it is finished, paused and resumed, cancelled after a question, a refusal and a failed
 * reading. A tree: each of the real machine's transitions ends one path.
 */
const model = createMachine({
  id: 'firmwareRolloutModel',
  initial: 'watching',
  states: {
    watching: {
      on: {
        'second.passes': 'reading',
        'person.pauses': 'pausing',
        'person.cancels': 'asking',
      },
    },
    reading: {
      on: {
        'service.readsMoving': 'watchingAgain',
        'service.readsDone': 'settled',
        'service.readsStopped': 'stoppedSettled',
        'service.readFails': 'readFailed',
      },
    },
    watchingAgain: {},
    readFailed: {},
    settled: { on: { 'person.refreshes': 'rereading' } },
    rereading: {},
    stoppedSettled: { on: { 'person.cancels': 'askingWhenStopped' } },
    askingWhenStopped: {},
    pausing: { on: { 'service.steers': 'pausedReading', 'service.refusesSteer': 'steerRefused' } },
    steerRefused: {},
    pausedReading: { on: { 'service.readsPaused': 'paused' } },
    paused: { on: { 'person.resumes': 'resuming' } },
    resuming: {},
    asking: { on: { 'person.keeps': 'kept', 'person.confirms': 'cancelling' } },
    kept: {},
    cancelling: {},
  },
});

const device = (serial: string, state: Rollout['devices'][number]['state']) => ({
  serial,
  state,
  version: state === 'confirmed' ? '1.1.0' : '1.0.0',
});
const rolloutIn = (state: RolloutState, devices: Rollout['devices']): Rollout => ({
  id: 7,
  state,
  firmwareId: 2,
  modelId: 'HX-5000',
  version: '1.1.0',
  canary: 1,
  waveSize: 2,
  maxFailures: 0,
  createdAt: '2026-11-01T11:00:00.000Z',
  windowEndsAt: '2026-11-02T11:00:00.000Z',
  devices,
});
const RUNNING = rolloutIn('running', [
  device('HX5K-24-000001', 'uploading'),
  device('HX5K-24-000002', 'queued'),
]);
const MOVED = rolloutIn('running', [
  device('HX5K-24-000001', 'confirmed'),
  device('HX5K-24-000002', 'uploading'),
]);
const DONE = rolloutIn('done', [
  device('HX5K-24-000001', 'confirmed'),
  device('HX5K-24-000002', 'confirmed'),
]);
const STOPPED = rolloutIn('stopped', [
  { ...device('HX5K-24-000001', 'reverted'), reason: 'came back with 1.0.0' },
  device('HX5K-24-000002', 'queued'),
]);
const PAUSED = { ...RUNNING, state: 'paused' as const };

function driver(): ModelDriver {
  const read = controlledActor<Rollout, { id: number }>();
  const steer = controlledActor<void, { id: number; action: SteerAction }>();
  const clock = new SimulatedClock();
  const actor = createActor(rolloutMachine.provide({ actors: { read: read.logic, steer: steer.logic } }), {
    input: { rollout: RUNNING },
    clock,
    inspect: recordCoverage,
  }).start();
  const snap = () => actor.getSnapshot();
  const sendAndWait = async (event: Parameters<typeof actor.send>[0], calls: { calls: unknown[] }) => {
    const before = calls.calls.length;
    actor.send(event);
    await waitFor(actor, () => calls.calls.length === before + 1);
  };
  /** The step after `steer`'s answer: the rollout is read again at once. */
  const readAfter = async (answer: () => Promise<void>) => {
    const before = read.calls.length;
    await answer();
    await waitFor(actor, () => read.calls.length === before + 1);
  };
  const waiting = (rollout: Rollout) => {
    expect(snap().matches({ live: 'waiting' })).toBe(true);
    expect(snap().context.rollout).toEqual(rollout);
  };
  return {
    events: {
      // A second and not a millisecond less: no reading before it.
      'second.passes': async () => {
        clock.increment(ROLLOUT_POLL_MS - 1);
        expect(read.calls).toHaveLength(0);
        clock.increment(1);
        await waitFor(actor, () => read.calls.length === 1);
      },
      'service.readsMoving': () => read.last().resolve(MOVED),
      'service.readsDone': () => read.last().resolve(DONE),
      'service.readsStopped': () => read.last().resolve(STOPPED),
      'service.readsPaused': () => read.last().resolve(PAUSED),
      'service.readFails': () => read.last().reject(new Error('Failed to fetch')),
      'person.refreshes': () => sendAndWait({ type: 'rollout.refresh' }, read),
      'person.pauses': () => sendAndWait({ type: 'rollout.pause' }, steer),
      'person.resumes': () => sendAndWait({ type: 'rollout.resume' }, steer),
      'person.cancels': () => actor.send({ type: 'rollout.cancel' }),
      'person.keeps': () => actor.send({ type: 'rollout.keep' }),
      'person.confirms': () => sendAndWait({ type: 'rollout.confirm' }, steer),
      'service.steers': () => readAfter(() => steer.last().resolve()),
      'service.refusesSteer': () =>
        readAfter(() =>
          steer.last().reject(new Error('The rollout is stopped; it can pause only when running')),
        ),
    },
    states: {
      watching: () => {
        waiting(RUNNING);
        expect(snap().can({ type: 'rollout.pause' })).toBe(true);
        expect(snap().can({ type: 'rollout.resume' })).toBe(false);
        expect(snap().can({ type: 'rollout.cancel' })).toBe(true);
        expect(snap().can({ type: 'rollout.refresh' })).toBe(false);
      },
      reading: () => {
        expect(snap().matches({ live: 'reading' })).toBe(true);
        expect(read.last().input).toEqual({ id: 7 });
      },
      watchingAgain: () => {
        waiting(MOVED);
        expect(snap().context.refreshError).toBeNull();
      },
      readFailed: () => {
        // What was read stays; the next second tries again.
        waiting(RUNNING);
        expect(snap().context.refreshError).toBe('Failed to fetch');
      },
      settled: () => {
        expect(snap().value).toBe('settled');
        expect(snap().context.rollout).toEqual(DONE);
        expect(snap().can({ type: 'rollout.pause' })).toBe(false);
        expect(snap().can({ type: 'rollout.cancel' })).toBe(false);
        // No more readings by themselves.
        clock.increment(ROLLOUT_POLL_MS * 5);
        expect(read.calls).toHaveLength(1);
      },
      rereading: () => {
        expect(snap().matches({ live: 'reading' })).toBe(true);
        expect(read.calls).toHaveLength(2);
      },
      stoppedSettled: () => {
        expect(snap().value).toBe('settled');
        expect(snap().can({ type: 'rollout.pause' })).toBe(false);
        expect(snap().can({ type: 'rollout.resume' })).toBe(false);
        expect(snap().can({ type: 'rollout.cancel' })).toBe(true);
      },
      askingWhenStopped: () => {
        expect(snap().value).toBe('confirmingCancel');
        expect(steer.calls).toHaveLength(0);
      },
      pausing: () => {
        expect(snap().value).toBe('steering');
        expect(steer.last().input).toEqual({ id: 7, action: 'pause' });
        expect(snap().can({ type: 'rollout.cancel' })).toBe(false);
      },
      steerRefused: () => {
        expect(snap().matches({ live: 'reading' })).toBe(true);
        expect(snap().context.steerError).toBe('The rollout is stopped; it can pause only when running');
      },
      pausedReading: () => {
        expect(snap().matches({ live: 'reading' })).toBe(true);
        expect(snap().context.steerError).toBeNull();
      },
      paused: () => {
        waiting(PAUSED);
        expect(snap().can({ type: 'rollout.pause' })).toBe(false);
        expect(snap().can({ type: 'rollout.resume' })).toBe(true);
      },
      resuming: () => {
        expect(snap().value).toBe('steering');
        expect(steer.last().input).toEqual({ id: 7, action: 'resume' });
      },
      asking: () => {
        expect(snap().value).toBe('confirmingCancel');
        expect(snap().can({ type: 'rollout.confirm' })).toBe(true);
        // While asked, the rollout is not read again.
        clock.increment(ROLLOUT_POLL_MS * 3);
        expect(read.calls).toHaveLength(0);
      },
      kept: () => {
        waiting(RUNNING);
        expect(steer.calls).toHaveLength(0);
      },
      cancelling: () => {
        expect(snap().value).toBe('steering');
        expect(steer.last().input).toEqual({ id: 7, action: 'cancel' });
      },
    },
  };
}

export default defineModel({
  name: 'firmware-rollout',
  title: "A rollout's page",
  source: 'machines/firmware/rollout-machine.ts',
  about:
    "A rollout's page reads it again every second while it moves and stops once it is done, cancelled, or stopped with nothing under way; Pause, Resume and Cancel (after a question) when its state allows, the rollout read again after each.",
  machine: rolloutMachine,
  model,
  driver,
  events: {
    'second.passes': 'A second passes on the page.',
    'service.readsMoving': 'The service answers the rollout with a device confirmed and the next uploading.',
    'service.readsDone': 'The service answers the rollout done, every device confirmed.',
    'service.readsStopped': 'The service answers the rollout stopped past its limit, nothing under way.',
    'service.readsPaused': 'The service answers the rollout paused.',
    'service.readFails': 'The rollout cannot be read (the network is down).',
    'person.refreshes': 'The person presses "Refresh".',
    'person.pauses': 'The person presses "Pause".',
    'person.resumes': 'The person presses "Resume".',
    'person.cancels': 'The person presses "Cancel rollout".',
    'person.keeps': 'The person answers "Keep it".',
    'person.confirms': 'The person confirms "Cancel rollout".',
    'service.steers': 'The service takes the pause, resume or cancel.',
    'service.refusesSteer': 'The service refuses: the rollout has stopped meanwhile.',
  },
  states: {
    watching: 'The running rollout as the loader read it; Pause and Cancel are offered, Resume is not.',
    reading: 'The rollout is being read again.',
    watchingAgain: 'The devices as read again; the next second reads again.',
    readFailed: 'The devices as before, with why they could not be read; the next second tries again.',
    settled: 'The rollout is done: no more readings, no steering; Refresh is offered.',
    rereading: 'The rollout is read again after "Refresh".',
    stoppedSettled: 'The rollout stopped and nothing is under way: only Cancel is offered.',
    askingWhenStopped: 'The question whether to cancel the stopped rollout.',
    pausing: 'The pause is being sent; nothing else can be pressed.',
    steerRefused: "The service's words, and the rollout read again to show its state.",
    pausedReading: 'The pause was taken: the rollout is read again.',
    paused: 'The paused rollout: Resume is offered, Pause is not; it is still read each second.',
    resuming: 'The resume is being sent.',
    asking: 'The question whether to cancel; the rollout is not read meanwhile.',
    kept: 'The question was answered "Keep it": nothing was sent, the page watches again.',
    cancelling: 'The cancel is being sent.',
  },
});
