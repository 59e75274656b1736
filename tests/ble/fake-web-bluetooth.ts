import type {
  BluetoothDeviceLike,
  BluetoothLike,
  BluetoothRequestOptions,
  GattCharacteristicLike,
  GattServerLike,
  GattServiceLike,
} from '../../src/ble/web-bluetooth-types.ts';
import type { SimulatedDevice } from '../../src/device-sim/simulated-device.ts';

/**
 * A stand-in for `navigator.bluetooth` in Node, answering like Chromium does: DOMExceptions with the
 * same names, one GATT operation at a time ("GATT operation already in progress" otherwise), and the
 * `gattserverdisconnected` event. The peripheral behind it is the real device simulator.
 */
export class FakeBluetooth implements BluetoothLike {
  chooser: 'select' | 'cancel' = 'select';
  available = true;
  /** The next GATT characteristic operation fails with a transient NetworkError. */
  busyOnce = false;
  inRange = true;
  lastRequest: BluetoothRequestOptions | undefined;
  chooserShown = 0;
  readonly device: FakeDevice;
  private granted = false;

  constructor(sim: SimulatedDevice, service: string, characteristic: string) {
    this.device = new FakeDevice(this, sim, service, characteristic);
  }

  async requestDevice(options: BluetoothRequestOptions): Promise<BluetoothDeviceLike> {
    this.chooserShown += 1;
    this.lastRequest = options;
    if (!this.available) throw new DOMException('Bluetooth adapter not available.', 'NotFoundError');
    if (this.chooser === 'cancel')
      throw new DOMException('User cancelled the requestDevice() chooser.', 'NotFoundError');
    this.granted = true;
    return this.device;
  }

  async getDevices(): Promise<BluetoothDeviceLike[]> {
    return this.granted ? [this.device] : [];
  }

  async getAvailability(): Promise<boolean> {
    return this.available;
  }
}

class FakeDevice extends EventTarget implements BluetoothDeviceLike {
  readonly id = 'fake-device-id-1';
  readonly gatt: FakeGatt;

  constructor(
    readonly bluetooth: FakeBluetooth,
    readonly sim: SimulatedDevice,
    service: string,
    characteristic: string,
  ) {
    super();
    this.gatt = new FakeGatt(this, service, characteristic);
  }

  get name(): string {
    return this.sim.serialNumber;
  }

  /** The peripheral went out of range. */
  drop(): void {
    if (!this.gatt.connected) return;
    this.gatt.lose();
  }
}

class FakeGatt implements GattServerLike {
  connected = false;
  private busy = false;

  constructor(
    private readonly device: FakeDevice,
    private readonly service: string,
    private readonly characteristic: string,
  ) {}

  async connect(): Promise<GattServerLike> {
    if (!this.device.bluetooth.inRange) throw new DOMException('Connection attempt failed.', 'NetworkError');
    if (!this.connected) this.device.sim.connect();
    this.connected = true;
    return this;
  }

  disconnect(): void {
    if (this.connected) this.lose();
  }

  lose(): void {
    this.connected = false;
    this.device.sim.disconnect();
    this.device.dispatchEvent(new Event('gattserverdisconnected'));
  }

  async getPrimaryService(uuid: string): Promise<GattServiceLike> {
    if (!this.connected) throw new DOMException('GATT Server is disconnected.', 'NetworkError');
    if (uuid !== this.service)
      throw new DOMException(`No Services matching UUID ${uuid} found in Device.`, 'NotFoundError');
    return {
      getCharacteristic: async (c: string) => {
        if (c !== this.characteristic)
          throw new DOMException(`No Characteristics matching UUID ${c} found in Service.`, 'NotFoundError');
        return this.makeCharacteristic();
      },
    };
  }

  private makeCharacteristic(): GattCharacteristicLike {
    const op = async <T>(run: () => T): Promise<T> => {
      if (!this.connected) throw new DOMException('GATT Server is disconnected.', 'NetworkError');
      const bluetooth = this.device.bluetooth;
      if (this.busy || bluetooth.busyOnce) {
        bluetooth.busyOnce = false;
        throw new DOMException('GATT operation already in progress.', 'NetworkError');
      }
      this.busy = true;
      try {
        // One macrotask in flight, so that an overlapping operation would be seen.
        await new Promise((resolve) => setImmediate(resolve));
        if (!this.connected) throw new DOMException('GATT Server is disconnected.', 'NetworkError');
        return run();
      } finally {
        this.busy = false;
      }
    };
    const toBytes = (value: BufferSource) =>
      value instanceof Uint8Array
        ? value
        : new Uint8Array(value instanceof ArrayBuffer ? value : value.buffer);
    return {
      writeValueWithResponse: (value) => op(() => this.device.sim.write(toBytes(value).slice())),
      writeValue: (value) => op(() => this.device.sim.write(toBytes(value).slice())),
      readValue: () =>
        op(() => {
          const bytes = this.device.sim.read();
          return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        }),
    };
  }
}
