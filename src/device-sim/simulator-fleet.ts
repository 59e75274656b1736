import type { Catalogue, DeviceEntry } from '../../contracts/catalogue.ts';
import type { Codec } from '../codec/types.ts';
import type { DeviceConfig } from '../device-config/config-schema.ts';
import type { ConfigStore } from './config-store.ts';
import type { DemoPlace } from './day-curve.ts';
import { SimulatedDevice } from './simulated-device.ts';

export interface SimulatorFleetOptions {
  codec: Codec;
  /** Catalogue files to find a serial number's model in (by its `serialPrefix`). */
  lists: readonly Catalogue[];
  /** Loaded device configurations by product key. */
  configs: Readonly<Record<string, DeviceConfig>>;
  store?: ConfigStore;
  now?: () => number;
}

/** A serial number that no catalogue model claims, or whose configuration is not loaded. */
export class UnknownDeviceError extends Error {
  constructor(
    readonly serialNumber: string,
    reason: string,
  ) {
    super(`No simulated device for serial number "${serialNumber}": ${reason}`);
    this.name = 'UnknownDeviceError';
  }
}

/**
 * Simulated devices by serial number, one per serial (the same object on every call), so that the
 * in-browser transport and the server's remote path talk to a device that remembers what it was told.
 * @example
 * const fleet = new SimulatorFleet({ codec, lists: [list, e1List], configs, store });
 * const answer = fleet.device('HX5K-24-000123').request(readFrame);
 */
export class SimulatorFleet {
  private readonly devices = new Map<string, SimulatedDevice>();

  constructor(private readonly options: SimulatorFleetOptions) {}

  /** The model id and entry whose serialPrefix starts the serial number, if any. */
  model(serialNumber: string): { modelId: string; entry: DeviceEntry } | undefined {
    for (const list of this.options.lists) {
      for (const [modelId, entry] of Object.entries(list.devicesList)) {
        if (serialNumber.startsWith(`${entry.serialPrefix}-`)) return { modelId, entry };
      }
    }
    return undefined;
  }

  /**
   * The simulated device with this serial number, created on first use (at `place`, when given:
   * where it is installed and since when).
   * @throws UnknownDeviceError when no model claims the serial or its configuration is missing.
   */
  device(serialNumber: string, place?: DemoPlace): SimulatedDevice {
    const existing = this.devices.get(serialNumber);
    if (existing) return existing;
    const model = this.model(serialNumber);
    if (!model) throw new UnknownDeviceError(serialNumber, 'no model in the devices lists has its prefix');
    const config = this.options.configs[model.entry.productKey];
    if (!config)
      throw new UnknownDeviceError(serialNumber, `${model.entry.productKey}-to-form.json is not loaded`);
    const { codec, store, now } = this.options;
    const device = new SimulatedDevice({
      codec,
      entry: model.entry,
      config,
      serialNumber,
      ...(store ? { store } : {}),
      ...(now ? { now } : {}),
      ...(place ? { place } : {}),
    });
    this.devices.set(serialNumber, device);
    return device;
  }
}
