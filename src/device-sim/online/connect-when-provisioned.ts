import type { Provisioning } from '../../device-protocol/protocol.ts';
import { SocketDevice, type SocketDeviceOptions } from './socket-device.ts';

/**
 * What a device does with what it is given over Bluetooth (`Provision`): it connects to the
 * address with the secret, by itself, and, given them again, drops the old connection for a new
 * one. Pass `onProvisioned` to the simulated device the app provisions.
 * @example const online = connectWhenProvisioned({ serialNumber, modelId, device }); new SimulatedDevice({ …, onProvisioned: online.onProvisioned })
 */
export function connectWhenProvisioned(options: Omit<SocketDeviceOptions, 'url' | 'secret'>) {
  let current: SocketDevice | undefined;
  return {
    onProvisioned(given: Provisioning): void {
      void current?.stop();
      current = new SocketDevice({ ...options, url: given.address, secret: given.secret });
      current.start();
    },
    /** The connection it opened, while there is one. */
    get socket(): SocketDevice | undefined {
      return current;
    },
    async stop(): Promise<void> {
      await current?.stop();
    },
  };
}
