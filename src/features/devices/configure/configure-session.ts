import { type Actor, createActor } from 'xstate';
import type { ConfigChange } from '../../../../contracts/config-history.ts';
import { createBleActors } from '../../../../machines/ble/ble-actors.ts';
import { commandMachine } from '../../../../machines/ble/command-machine.ts';
import { connectionMachine } from '../../../../machines/ble/connection-machine.ts';
import { passwordMachine } from '../../../../machines/ble/password-machine.ts';
import { type WriteRequest, writeMachine } from '../../../../machines/ble/write-machine.ts';
import { targetOf } from '../../../ble/device-commands.ts';
import { SimulatedTransport } from '../../../ble/simulated-transport.ts';
import type { BleLink, BleTransport } from '../../../ble/transport.ts';
import { WebBluetoothTransport } from '../../../ble/web-bluetooth-transport.ts';
import { browserBluetooth } from '../../../ble/web-bluetooth-types.ts';
import type { Codec } from '../../../codec/types.ts';
import { decodeConfiguration } from '../../../device-config/decode-values.ts';
import type { DeviceProduct } from '../../../device-config/load-product.ts';
import { PASSWORD_ITEMS } from '../../../device-config/password.ts';
import { settingChoices } from '../../../device-config/setting-choices.ts';
import { type ConfigStore, MemoryConfigStore } from '../../../device-sim/config-store.ts';
import { SimulatedDevice } from '../../../device-sim/simulated-device.ts';
import { configChanges } from './config-changes.ts';

/** A verified write, as the configuration history keeps it. */
export interface VerifiedWrite {
  serialNumber: string;
  transport: BleTransport['kind'];
  changes: ConfigChange[];
  /** The settings template the write applied, if any. */
  template?: string;
}

export interface ConfigureSessionOptions {
  codec: Codec;
  product: DeviceProduct;
  /** The serial number of the device being configured, when the page knows it. */
  serialNumber?: string | undefined;
  /** Web Bluetooth transport; the browser's when omitted (tests pass a stub). */
  webTransport?: BleTransport;
  /** Where the demo device keeps what is written (localStorage in the app). */
  demoStore?: ConfigStore;
  /** Delay of each demo-device step, so the states can be seen. */
  demoLatencyMs?: number;
  /** Called after every verified write that changed something. */
  onVerifiedWrite?: (write: VerifiedWrite) => void;
}

/**
 * The Bluetooth machines of one Configure panel, started together and kept in step: a ready
 * connection is handed to the password machine, a lost one locks it, and a verified write updates
 * the connection's configuration and is reported for the history. Stop it when the panel goes.
 */
export function startConfigureSession(options: ConfigureSessionOptions) {
  const { codec, product } = options;
  const actors = createBleActors({ codec, product });
  const target = targetOf(product.entry);
  const choices = settingChoices(product.config);
  const connection = createActor(connectionMachine.provide({ actors: actors.connection }), {
    input: { target },
  }).start();
  const needsPassword = product.config.rawData.some((item) => item.name === PASSWORD_ITEMS[0]);
  const password = createActor(passwordMachine.provide({ actors: actors.password }), {
    input: { needsPassword },
  }).start();
  const write = createActor(writeMachine.provide({ actors: actors.write }), { input: { product } }).start();
  const command = createActor(commandMachine.provide({ actors: actors.command })).start();

  const demoSerial = options.serialNumber ?? `${product.entry.serialPrefix}-00-000001`;
  let demoDevice: SimulatedDevice | undefined;
  const demoTransport = new SimulatedTransport({
    latencyMs: options.demoLatencyMs ?? 0,
    deviceFor: () => {
      demoDevice ??= new SimulatedDevice({
        codec,
        entry: product.entry,
        config: product.config,
        serialNumber: demoSerial,
        store: options.demoStore ?? new MemoryConfigStore(),
      });
      return demoDevice;
    },
  });
  const webTransport = options.webTransport ?? new WebBluetoothTransport(browserBluetooth());

  let readyLink: BleLink | null = null;
  const connectionWatch = connection.subscribe((snapshot) => {
    const ready = snapshot.matches('ready');
    const link = snapshot.context.link;
    if (ready && link && link !== readyLink) {
      readyLink = link;
      password.send({ type: 'password.connected', link });
    } else if (!ready && readyLink) {
      readyLink = null;
      password.send({ type: 'password.disconnected', forget: !snapshot.matches('reconnecting') });
    }
  });

  let reported: unknown = null;
  // The template the write under way applies, for its history record; a plain write has none.
  let applyingTemplate: string | undefined;
  const writeWatch = write.subscribe((snapshot) => {
    const { readBack, request } = snapshot.context;
    if (snapshot.matches('failed') || snapshot.matches('invalid')) applyingTemplate = undefined;
    if (!snapshot.matches('done') || !readBack || !request || reported === readBack) return;
    reported = readBack;
    connection.send({ type: 'ble.configWritten', config: readBack });
    const before = decodeConfiguration(codec, product.config, request.base).values;
    const changes = configChanges(request.groups, before, readBack.decoded.values, choices);
    const transport = connection.getSnapshot().context.transport?.kind ?? 'simulated';
    const serialNumber = options.serialNumber ?? request.link.name;
    const template = applyingTemplate;
    applyingTemplate = undefined;
    if (changes.length > 0)
      options.onVerifiedWrite?.({ serialNumber, transport, changes, ...(template ? { template } : {}) });
  });

  return {
    product,
    connection,
    password,
    write,
    command,
    demoTransport,
    webTransport,
    /**
     * Write a settings template's values with the verified write: the same write as the form's,
     * recorded in the history with the template's name.
     */
    writeTemplate(name: string, request: WriteRequest) {
      applyingTemplate = name;
      write.send({ type: 'config.write', ...request });
    },
    /** The demo device behind the simulated transport, once it was used. */
    demoDevice: () => demoDevice,
    stop() {
      connectionWatch.unsubscribe();
      writeWatch.unsubscribe();
      connection.getSnapshot().context.link?.disconnect();
      for (const actor of [connection, password, write, command] as Actor<never>[]) actor.stop();
    },
  };
}

export type ConfigureSession = ReturnType<typeof startConfigureSession>;
