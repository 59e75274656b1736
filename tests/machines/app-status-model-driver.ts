import { expect } from 'vitest';
import { type AnyEventObject, createActor, fromCallback } from 'xstate';
import { appStatusMachine, type ServiceWorkerCommand } from '../../machines/app-status/app-status-machine.ts';
import { isOffline, isUpdateAvailable, isUpdating } from '../../machines/app-status/app-status-selectors.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

/** Events and state checks that run one path of the app-status model against the real machine. */
export function appStatusModelDriver(): ModelDriver {
  const commands: ServiceWorkerCommand[] = [];
  let emitNetwork: (event: AnyEventObject) => void = () => {};
  let emitWorker: (event: AnyEventObject) => void = () => {};
  const machine = appStatusMachine.provide({
    actors: {
      // The browser's `online`/`offline` events, played by the test.
      connectivity: fromCallback(({ sendBack }) => {
        emitNetwork = sendBack;
        return () => {};
      }),
      // The service worker: the test says when a new version waits, and reads what it was told.
      serviceWorker: fromCallback<ServiceWorkerCommand>(({ sendBack, receive }) => {
        emitWorker = sendBack;
        receive((command) => commands.push(command));
        return () => {};
      }),
    },
  });
  let actor: ReturnType<typeof createActor<typeof machine>> | null = null;
  const start = (online: boolean) => {
    actor = createActor(machine, { input: { online }, inspect: recordCoverage }).start();
  };
  const snap = () => {
    if (!actor) throw new Error('the app has not started');
    return actor.getSnapshot();
  };
  const shows = (offline: boolean, update: 'none' | 'offered' | 'updating') => {
    expect(isOffline(snap())).toBe(offline);
    expect(isUpdateAvailable(snap())).toBe(update === 'offered');
    expect(isUpdating(snap())).toBe(update === 'updating');
    expect(snap().can({ type: 'update.apply' })).toBe(update === 'offered');
    // The new version never takes over unless the person chose to reload.
    expect(commands).toEqual(update === 'updating' ? [{ type: 'worker.activate' }] : []);
  };
  return {
    events: {
      'start.online': () => start(true),
      'start.offline': () => start(false),
      'network.online': () => emitNetwork({ type: 'network.online' }),
      'network.offline': () => emitNetwork({ type: 'network.offline' }),
      'update.found': () => emitWorker({ type: 'update.found' }),
      'update.apply': () => actor?.send({ type: 'update.apply' }),
      'update.dismiss': () => actor?.send({ type: 'update.dismiss' }),
    },
    states: {
      starting: () => expect(actor).toBeNull(),
      online: () => shows(false, 'none'),
      offline: () => shows(true, 'none'),
      updateOffered: () => shows(false, 'offered'),
      offlineUpdateOffered: () => shows(true, 'offered'),
      updateDismissed: () => shows(false, 'none'),
      updating: () => shows(false, 'updating'),
    },
  };
}
