import { mayOpenRemoteDebugger } from '../../../contracts/access-policy.ts';
import { remoteDebuggerMachine } from '../../../machines/remote-debugger/debugger-machine.ts';
import { loadStoredLog, storeLog } from '../../../machines/remote-debugger/exchange-log.ts';
import { ApiError } from '../../api/api-error.ts';
import type { AppRuntime } from '../../app/app-runtime.ts';
import { requireCurrentUser } from '../../app/current-user.ts';
import { WebBluetoothTransport } from '../../ble/web-bluetooth-transport.ts';
import { browserBluetooth } from '../../ble/web-bluetooth-types.ts';
import { loadCodec } from '../../codec/load-browser.ts';
import type { Codec } from '../../codec/types.ts';
import { loadBundledProduct, readBundledFile } from '../../device-config/load-product.ts';
import { StorageConfigStore } from '../../device-sim/config-store.ts';
import { createDebuggerActors } from './debugger-actors.ts';

/**
 * The Remote Debugger sends raw frames, which are for company staff only (an e-mail of the company
 * domain, `contracts/company-staff.ts`): the page is theirs, and the service refuses a raw frame
 * from anyone else, who may send only a device's catalogue commands, and only to devices on sites
 * where they hold the installer or configurator role. Loads the codec that builds and checks the
 * frames, and builds the console's machine with its actors.
 *
 * @throws ApiError 403 for anyone who is not company staff; CodecLoadError when the codec fails to load
 */
export async function loadRemoteDebugger(runtime: AppRuntime) {
  const user = requireCurrentUser(runtime);
  if (!mayOpenRemoteDebugger(user)) {
    throw new ApiError('Remote Debugger is for company staff.', {
      status: 403,
      code: 'staff_only',
      path: '/remote-debugger',
    });
  }
  const codec = await loadCodec();
  return { user, codec, console: debuggerConsole(runtime, user.id, codec) };
}

/**
 * The console's machine with its real actors (the service, Web Bluetooth, demo devices kept in
 * this browser), `start`, the input of a console opened now (the log as stored at that moment: a
 * page shown again from the router's cache starts from the latest log), and `close`, which ends
 * its Bluetooth links when the page is left.
 */
function debuggerConsole(runtime: AppRuntime, userId: number, codec: Codec) {
  const made = createDebuggerActors({
    api: runtime.configApi,
    userId,
    codec,
    loadProduct: (modelId) => loadBundledProduct({ productId: modelId }, readBundledFile),
    webTransport: new WebBluetoothTransport(browserBluetooth()),
    demoStore: new StorageConfigStore(window.localStorage),
  });
  const logic = remoteDebuggerMachine.provide({
    actors: made.actors,
    actions: { persistLog: (_, params) => storeLog(window.localStorage, params.log) },
  });
  const start = () => ({ codec, log: loadStoredLog(window.localStorage) });
  return { logic, start, close: made.close };
}
