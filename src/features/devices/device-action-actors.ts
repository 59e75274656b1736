import { fromPromise } from 'xstate';
import {
  type ActionResult,
  type DeviceAction,
  deviceActionMachine,
} from '../../../machines/commissioning/device-action-machine.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { removeInstall, replaceInstall, updateInstall } from '../../api/commissioning-api.ts';

/**
 * One confirmed action on an installed device, over the configuration service.
 * @example await performDeviceAction(configApi, 42, { kind: 'rename', name: 'Garage inverter' })
 * @throws the service's refusal (an ApiError with its message), which the dialog shows
 */
export async function performDeviceAction(
  api: ApiClient,
  deviceId: number,
  action: DeviceAction,
): Promise<ActionResult> {
  if (action.kind === 'remove') {
    await removeInstall(api, deviceId);
    return { kind: 'removed' };
  }
  if (action.kind === 'replace')
    return { kind: 'replaced', device: await replaceInstall(api, deviceId, action.serial, action.claimCode) };
  const body = action.kind === 'rename' ? { name: action.name } : { siteId: action.siteId };
  return { kind: 'changed', device: await updateInstall(api, deviceId, body) };
}

/**
 * The device page's action machine with its I/O: the service's calls for this device, the page's
 * refresh, and leaving the page (for the site's) once the device is taken off.
 */
export function deviceActionsFor(io: {
  api: ApiClient;
  deviceId: number;
  refresh: ReturnType<typeof fromPromise<void>>;
  leave: () => void;
}) {
  return deviceActionMachine.provide({
    actors: {
      refresh: io.refresh,
      perform: fromPromise<ActionResult, DeviceAction>(({ input }) =>
        performDeviceAction(io.api, io.deviceId, input),
      ),
    },
    actions: { leave: io.leave },
  });
}
