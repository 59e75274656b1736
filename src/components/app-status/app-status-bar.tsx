import './app-status-bar.css';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { appStatusMachine } from '../../../machines/app-status/app-status-machine.ts';
import {
  isOffline,
  isUpdateAvailable,
  isUpdating,
} from '../../../machines/app-status/app-status-selectors.ts';

export const OFFLINE_MESSAGE =
  'You are offline. Signing in and live data need a connection; the bundled device catalogue still works.';
export const UPDATE_MESSAGE = 'A new version of Fleet Manager is ready.';

/**
 * The offline notice and the "Reload to update" offer, at the foot of every screen. The texts sit
 * in one live region that is always there, so screen readers announce each change.
 */
export function AppStatusBar({ status }: { status: ActorRefFrom<typeof appStatusMachine> }) {
  const offline = useSelector(status, isOffline);
  const available = useSelector(status, isUpdateAvailable);
  const updating = useSelector(status, isUpdating);
  const canApply = useSelector(status, (s) => s.can({ type: 'update.apply' }));
  const canDismiss = useSelector(status, (s) => s.can({ type: 'update.dismiss' }));
  const showUpdate = available || updating;
  return (
    <div className="fm-app-status" data-active={offline || showUpdate}>
      <div role="status" className="fm-app-status__messages">
        {offline ? <p className="fm-app-status__offline">{OFFLINE_MESSAGE}</p> : null}
        {showUpdate ? <p>{updating ? 'Updating Fleet Manager…' : UPDATE_MESSAGE}</p> : null}
      </div>
      {showUpdate ? (
        <div className="fm-app-status__actions">
          <button type="button" disabled={!canApply} onClick={() => status.send({ type: 'update.apply' })}>
            Reload to update
          </button>
          <button
            type="button"
            disabled={!canDismiss}
            onClick={() => status.send({ type: 'update.dismiss' })}
          >
            Later
          </button>
        </div>
      ) : null}
    </div>
  );
}
