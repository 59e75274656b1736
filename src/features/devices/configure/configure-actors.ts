import { createBleActors } from '../../../../machines/ble/ble-actors.ts';
import {
  type ConfigureSessionInput,
  configureSessionWith,
} from '../../../../machines/ble/configure-session-machine.ts';
import { SimulatedTransport } from '../../../ble/simulated-transport.ts';
import type { BleTransport } from '../../../ble/transport.ts';
import { WebBluetoothTransport } from '../../../ble/web-bluetooth-transport.ts';
import { browserBluetooth } from '../../../ble/web-bluetooth-types.ts';
import type { Codec } from '../../../codec/types.ts';
import type { DeviceProduct } from '../../../device-config/load-product.ts';
import { PASSWORD_ITEMS } from '../../../device-config/password.ts';
import { type ConfigStore, MemoryConfigStore } from '../../../device-sim/config-store.ts';
import { SimulatedDevice } from '../../../device-sim/simulated-device.ts';
import type { SignedInActors } from './signed-in-actors.ts';

export interface ConfigureSessionOptions {
  codec: Codec;
  product: DeviceProduct;
  /** The device the page is about, when it knows it. */
  serialNumber?: string | undefined;
  /**
   * Signed in: the history (verified Bluetooth writes go to the device's configuration history)
   * and the templates, over the configuration service (`signedInActors`).
   */
  signedIn?: SignedInActors | undefined;
  /** The browser's Web Bluetooth; looked up when omitted, null where the browser has none. */
  bluetooth?: BleTransport | null;
  /** Where the demo device keeps what is written to it (localStorage in the app). */
  demoStore?: ConfigStore;
  /** Delay of each demo-device step, so that a person sees connecting and writing happen. */
  demoLatencyMs?: number;
}

/** The password a device holds in its 16 password items, as text. */
function passwordText(raw: Readonly<Record<string, number>>): string {
  return PASSWORD_ITEMS.map((name) => raw[name] ?? 0)
    .filter((code) => code > 0)
    .map((code) => String.fromCharCode(code))
    .join('');
}

/**
 * Everything a Configure panel's session is started from, built once when the panel's product
 * has loaded: the session machine with its children's I/O (the Bluetooth actors over this codec
 * and product, and, signed in, the history and the templates over the configuration service),
 * and its input (the
 * browser's Bluetooth, the demo device in the page and the demo device's password).
 * @example const { logic, input } = configureSessionFor({ codec, product, serialNumber }); useActorRef(logic, { input })
 */
export function configureSessionFor(options: ConfigureSessionOptions) {
  const { codec, product, signedIn } = options;
  const logic = configureSessionWith({ ble: createBleActors({ codec, product }), ...signedIn });

  const demoSerial = options.serialNumber ?? `${product.entry.serialPrefix}-00-000001`;
  const demoStore = options.demoStore ?? new MemoryConfigStore();
  let demoDevice: SimulatedDevice | undefined;
  const demo = new SimulatedTransport({
    latencyMs: options.demoLatencyMs ?? 0,
    deviceFor: () => {
      demoDevice ??= new SimulatedDevice({
        codec,
        entry: product.entry,
        config: product.config,
        serialNumber: demoSerial,
        store: demoStore,
      });
      return demoDevice;
    },
  });
  const web = browserBluetooth();
  const bluetooth =
    options.bluetooth !== undefined ? options.bluetooth : web ? new WebBluetoothTransport(web) : null;
  const needsPassword = product.config.rawData.some((item) => item.name === PASSWORD_ITEMS[0]);
  const factory = Object.fromEntries(product.config.rawData.map((item) => [item.name, item.value]));
  const input: ConfigureSessionInput = {
    product,
    serialNumber: options.serialNumber,
    transports: { bluetooth, demo },
    signedIn: signedIn !== undefined,
    demoPassword: needsPassword ? passwordText({ ...factory, ...demoStore.load(demoSerial) }) : null,
  };
  return { logic, input };
}
