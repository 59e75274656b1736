import { fromPromise } from 'xstate';
import { errorMessage } from '../../../contracts/error-message.ts';
import type { OnlineDevice } from '../../../contracts/service-comms.ts';
import type { DebugDevice, SendInput } from '../../../machines/remote-debugger/debugger-types.ts';
import { ExchangeFailure } from '../../../machines/remote-debugger/debugger-types.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { targetOf } from '../../ble/device-commands.ts';
import { SimulatedTransport } from '../../ble/simulated-transport.ts';
import type { BleLink, BleTransport } from '../../ble/transport.ts';
import { TransportError } from '../../ble/transport-error.ts';
import type { Codec } from '../../codec/types.ts';
import type { DeviceProduct } from '../../device-config/load-product.ts';
import { type ConfigStore, MemoryConfigStore } from '../../device-sim/config-store.ts';
import { SimulatedDevice } from '../../device-sim/simulated-device.ts';
import { fetchOnlineDevices, searchDebugDevices, sendRemoteCommand } from './debugger-api.ts';

export interface DebuggerActorsOptions {
  api: ApiClient;
  userId: number;
  codec: Codec;
  /** Finds a model in the catalogue and loads its configuration. */
  loadProduct: (modelId: string) => Promise<DeviceProduct>;
  /** The browser's Web Bluetooth transport (a stub in tests). */
  webTransport: BleTransport;
  /** Where the demo devices keep what is written to them. */
  demoStore?: ConfigStore;
}

/** A Bluetooth failure in words for the log: a dropped link is the device going away. */
function bluetoothFailure(error: unknown): ExchangeFailure {
  if (error instanceof TransportError && (error.kind === 'disconnected' || error.kind === 'out-of-range'))
    return new ExchangeFailure('offline', `The Bluetooth link dropped: ${error.message}`, { cause: error });
  const message = errorMessage(error);
  return new ExchangeFailure('failed', `Bluetooth: ${message}`, { cause: error });
}

/**
 * The real actors of the Remote Debugger machine: the device search and online list on the
 * configuration service, the catalogue, and one way to send per path (the service's command call,
 * Web Bluetooth, or a demo device in the page). Bluetooth links stay open between commands.
 */
export function createDebuggerActors(options: DebuggerActorsOptions) {
  const { api, codec } = options;
  const demoStore = options.demoStore ?? new MemoryConfigStore();
  const demoDevices = new Map<string, SimulatedDevice>();
  const links = new Map<string, BleLink>();

  const demoTransport = (serialNumber: string, product: DeviceProduct) =>
    new SimulatedTransport({
      deviceFor: () => {
        let device = demoDevices.get(serialNumber);
        if (!device) {
          device = new SimulatedDevice({
            codec,
            entry: product.entry,
            config: product.config,
            serialNumber,
            store: demoStore,
          });
          demoDevices.set(serialNumber, device);
        }
        return device;
      },
    });

  const openLink = async (input: SendInput): Promise<BleLink> => {
    const key = `${input.path}:${input.serialNumber}`;
    let link = links.get(key);
    if (!link) {
      const transport =
        input.path === 'demo' ? demoTransport(input.serialNumber, input.product) : options.webTransport;
      const chosen = await transport.choose(targetOf(input.product.entry));
      if (!chosen) throw new ExchangeFailure('failed', 'No device was chosen in the Bluetooth chooser.');
      link = chosen;
      links.set(key, link);
    }
    if (!link.connected) {
      await link.connect();
      await link.discover();
    }
    return link;
  };

  const sendOverBluetooth = async (input: SendInput): Promise<Uint8Array> => {
    try {
      const link = await openLink(input);
      await link.write(input.frame);
      return await link.read();
    } catch (error) {
      if (error instanceof ExchangeFailure) throw error;
      throw bluetoothFailure(error);
    }
  };

  return {
    actors: {
      // Typing again stops this actor: its signal aborts the request on its way.
      searchDevices: fromPromise<DebugDevice[], { query: string }>(({ input, signal }) =>
        searchDebugDevices(api, options.userId, input.query, signal),
      ),
      fetchOnline: fromPromise<OnlineDevice[] | null>(() => fetchOnlineDevices(api)),
      loadProduct: fromPromise<DeviceProduct, { modelId: string }>(({ input }) =>
        options.loadProduct(input.modelId),
      ),
      sendFrame: fromPromise<Uint8Array, SendInput>(({ input }) =>
        input.path === 'remote'
          ? sendRemoteCommand(api, input.serialNumber, input.frame)
          : sendOverBluetooth(input),
      ),
    },
    /** Closes every Bluetooth link (the page is being left). */
    close() {
      for (const link of links.values()) link.disconnect();
      links.clear();
    },
  };
}
