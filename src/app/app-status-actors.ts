import { fromCallback } from 'xstate';
import type { AppStatusEvent, ServiceWorkerCommand } from '../../machines/app-status/app-status-machine.ts';

/** How often an open app asks whether a new version was deployed (a navigation asks too). */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

/** The browser's own connection events. */
export const browserConnectivity = fromCallback<AppStatusEvent>(({ sendBack }) => {
  const online = () => sendBack({ type: 'network.online' });
  const offline = () => sendBack({ type: 'network.offline' });
  window.addEventListener('online', online);
  window.addEventListener('offline', offline);
  return () => {
    window.removeEventListener('online', online);
    window.removeEventListener('offline', offline);
  };
});

/**
 * Registers `/sw.js` (built by vite-plugin-pwa) through workbox-window, loaded after the first
 * screen. A new version waits (`update.found`) until the machine sends `worker.activate`; the
 * page then reloads once that version controls it. A version activated from another tab does
 * not reload this one: its person is told of the update and chooses when.
 */
export const workboxServiceWorker = fromCallback<ServiceWorkerCommand>(({ sendBack, receive }) => {
  if (!('serviceWorker' in navigator)) return () => {};
  let stopped = false;
  let activating = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let skipWaiting: (() => void) | undefined;
  import('workbox-window')
    .then(({ Workbox }) => {
      if (stopped) return;
      const workbox = new Workbox('/sw.js');
      workbox.addEventListener('waiting', () => sendBack({ type: 'update.found' }));
      // Only the person's own choice reloads; the first version taking an open page does not.
      workbox.addEventListener('controlling', () => {
        if (activating) window.location.reload();
      });
      skipWaiting = () => workbox.messageSkipWaiting();
      timer = setInterval(() => void workbox.update(), UPDATE_CHECK_MS);
      return workbox.register();
    })
    .catch((error: unknown) =>
      console.error('The offline copy of Fleet Manager could not be set up:', error),
    );
  receive((command) => {
    if (command.type !== 'worker.activate') return;
    activating = true;
    skipWaiting?.();
  });
  return () => {
    stopped = true;
    clearInterval(timer);
  };
});
