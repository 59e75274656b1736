import { fromCallback } from 'xstate';
import { createBleUpdateActors } from '../../../../machines/firmware/ble-update-actors.ts';
import { bleUpdateMachine } from '../../../../machines/firmware/ble-update-machine.ts';
import type { ApiClient } from '../../../api/api-client.ts';
import { SimulatedSmpLink, SimulatedSmpTransport } from '../../../ble/simulated-smp-transport.ts';
import type { SmpTransport } from '../../../ble/smp-link.ts';
import { WebBluetoothSmpTransport } from '../../../ble/web-bluetooth-smp-transport.ts';
import { browserBluetooth } from '../../../ble/web-bluetooth-types.ts';
import type { FirmwareCodec } from '../../../codec/firmware/image-types.ts';
import { FirmwareKeyring } from '../../../device-sim/firmware-keyring.ts';
import { SmpDevice } from '../../../device-sim/smp-device.ts';
import { fetchFirmwareBytes } from './firmware-api.ts';

/** The demo device's radio: about what a phone gets from a Bluetooth LE link, so progress shows. */
const DEMO_BYTES_PER_SECOND = 16 * 1024;
const DEMO_RESTART_MS = 1500;

/** Keeps the screen on while it holds (Screen Wake Lock), again each time the page is shown. */
const keepAwake = fromCallback(() => {
  let lock: WakeLockSentinel | null = null;
  let stopped = false;
  const request = () => {
    if (document.visibilityState !== 'visible' || !('wakeLock' in navigator)) return;
    navigator.wakeLock.request('screen').then(
      (sentinel) => {
        if (stopped) void sentinel.release();
        else lock = sentinel;
      },
      () => {},
    );
  };
  request();
  document.addEventListener('visibilitychange', request);
  return () => {
    stopped = true;
    document.removeEventListener('visibilitychange', request);
    lock?.release().catch(() => {});
  };
});

export interface FirmwareUpdateSetup {
  api: ApiClient;
  firmware: FirmwareCodec;
  modelId: string;
  serial: string;
  /** The version the device said it runs (the demo device starts at it). */
  running: string;
  trustedKeys: Uint8Array[];
}

/**
 * The update machine with its I/O for one device, and its transports: the browser's Web Bluetooth
 * (null where there is none) and the demo device in the page (its own two slots, trusting the
 * service's keys).
 */
export async function firmwareUpdateFor(setup: FirmwareUpdateSetup) {
  const { api, firmware, modelId, serial } = setup;
  const device = new SmpDevice({
    firmware,
    keyring: await FirmwareKeyring.of(firmware, setup.trustedKeys),
    modelId,
    version: setup.running,
  });
  const demoLink = new SimulatedSmpLink({
    serialNumber: serial,
    device,
    bytesPerSecond: DEMO_BYTES_PER_SECOND,
    restartMs: DEMO_RESTART_MS,
  });
  const web = browserBluetooth();
  const transports: { bluetooth: SmpTransport | null; demo: SimulatedSmpTransport } = {
    bluetooth: web ? new WebBluetoothSmpTransport(web) : null,
    demo: new SimulatedSmpTransport(demoLink),
  };
  const logic = bleUpdateMachine.provide({
    actors: {
      ...createBleUpdateActors({ firmware, modelId, download: (offer) => fetchFirmwareBytes(api, offer.id) }),
      keepAwake,
    },
  });
  return { logic, transports, demoLink };
}
