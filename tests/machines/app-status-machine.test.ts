import { describe, expect, it } from 'vitest';
import { type AnyEventObject, createActor, fromCallback, waitFor } from 'xstate';
import { appStatusMachine, type ServiceWorkerCommand } from '../../machines/app-status/app-status-machine.ts';
import { isOffline, isUpdateAvailable, isUpdating } from '../../machines/app-status/app-status-selectors.ts';

/** The machine with fake browser actors: `emit` plays the browser, `commands` records what the worker was told. */
function start(online: boolean) {
  const commands: ServiceWorkerCommand[] = [];
  let emitNetwork: (event: AnyEventObject) => void = () => {};
  let emitWorker: (event: AnyEventObject) => void = () => {};
  const machine = appStatusMachine.provide({
    actors: {
      connectivity: fromCallback(({ sendBack }) => {
        emitNetwork = sendBack;
        return () => {};
      }),
      serviceWorker: fromCallback<ServiceWorkerCommand>(({ sendBack, receive }) => {
        emitWorker = sendBack;
        receive((command) => commands.push(command));
        return () => {};
      }),
    },
  });
  const actor = createActor(machine, { input: { online } }).start();
  return {
    actor,
    commands,
    network: (event: 'network.online' | 'network.offline') => emitNetwork({ type: event }),
    worker: () => emitWorker({ type: 'update.found' }),
  };
}

describe('the app status: offline notice and update offer', () => {
  it('starts offline when the browser has no connection, and follows the connection after', async () => {
    const app = start(false);
    expect(isOffline(app.actor.getSnapshot())).toBe(true);
    app.network('network.online');
    await waitFor(app.actor, (s) => !isOffline(s));
    app.network('network.offline');
    await waitFor(app.actor, isOffline);
  });

  it('starts online when the browser has a connection', () => {
    expect(isOffline(start(true).actor.getSnapshot())).toBe(false);
  });

  it('offers a waiting version without activating it: nothing is swapped until the person chooses', async () => {
    const app = start(true);
    app.worker();
    await waitFor(app.actor, isUpdateAvailable);
    expect(app.commands).toEqual([]);
    expect(app.actor.getSnapshot().can({ type: 'update.apply' })).toBe(true);
  });

  it('activates the waiting version when the person chooses "Reload to update", once', async () => {
    const app = start(true);
    app.worker();
    await waitFor(app.actor, isUpdateAvailable);
    app.actor.send({ type: 'update.apply' });
    await waitFor(app.actor, isUpdating);
    app.actor.send({ type: 'update.apply' });
    expect(app.commands).toEqual([{ type: 'worker.activate' }]);
  });

  it('refuses "Reload to update" while no new version waits', () => {
    const app = start(true);
    expect(app.actor.getSnapshot().can({ type: 'update.apply' })).toBe(false);
    app.actor.send({ type: 'update.apply' });
    expect(app.commands).toEqual([]);
  });

  it('puts the offer away on "Later" and brings it back when the next version is found', async () => {
    const app = start(true);
    app.worker();
    await waitFor(app.actor, isUpdateAvailable);
    app.actor.send({ type: 'update.dismiss' });
    await waitFor(app.actor, (s) => !isUpdateAvailable(s));
    app.worker();
    await waitFor(app.actor, isUpdateAvailable);
    expect(app.commands).toEqual([]);
  });

  it('keeps the update offer while the connection comes and goes', async () => {
    const app = start(true);
    app.worker();
    app.network('network.offline');
    await waitFor(app.actor, (s) => isOffline(s) && isUpdateAvailable(s));
  });
});
