import type { SnapshotFrom } from 'xstate';
import type { appStatusMachine } from './app-status-machine.ts';

type AppStatusSnapshot = SnapshotFrom<typeof appStatusMachine>;

/** No connection: the screens that need the services cannot work, the bundled catalogue can. */
export const isOffline = (s: AppStatusSnapshot) => s.matches({ network: 'offline' });
/** A new version waits for the person to choose "Reload to update". */
export const isUpdateAvailable = (s: AppStatusSnapshot) => s.matches({ update: 'available' });
/** The person chose to reload; the page reloads as soon as the new version has taken over. */
export const isUpdating = (s: AppStatusSnapshot) => s.matches({ update: 'applying' });
