import { OperationQueue } from './operation-queue.ts';
import type { BleLink, BleTarget, BleTransport } from './transport.ts';
import { checkFrameLength, TRANSPORT_MESSAGES, TransportError } from './transport-error.ts';
import { isChooserCancelled, isTransientGattError, webBluetoothError } from './web-bluetooth-errors.ts';
import type { BluetoothDeviceLike, BluetoothLike, GattCharacteristicLike } from './web-bluetooth-types.ts';

/** A GATT operation the device has not answered in this long counts as a lost link. */
export const OPERATION_TIMEOUT_MS = 10_000;

/** A link to one device over Web Bluetooth. */
class WebBluetoothLink implements BleLink {
  private characteristic: GattCharacteristicLike | undefined;
  private readonly queue = new OperationQueue();
  private readonly listeners = new Set<() => void>();
  private closing = false;
  private lastRssi: number | undefined;
  /** Rejecters of the operations in flight: a dropped link fails them at once instead of never. */
  private readonly inFlight = new Set<(error: TransportError) => void>();

  constructor(
    private readonly device: BluetoothDeviceLike,
    private readonly target: BleTarget,
  ) {
    device.addEventListener('gattserverdisconnected', () => {
      this.characteristic = undefined;
      for (const reject of [...this.inFlight])
        reject(new TransportError('disconnected', TRANSPORT_MESSAGES.disconnected));
      if (this.closing) return;
      for (const listener of [...this.listeners]) listener();
    });
    device.addEventListener('advertisementreceived', (event) => {
      const rssi = (event as Event & { rssi?: number }).rssi;
      if (typeof rssi === 'number') this.lastRssi = rssi;
    });
  }

  get id(): string {
    return this.device.id;
  }

  get name(): string {
    return this.device.name ?? '';
  }

  get connected(): boolean {
    return this.device.gatt?.connected === true && this.characteristic !== undefined;
  }

  async connect(): Promise<void> {
    const gatt = this.device.gatt;
    if (!gatt) throw new TransportError('out-of-range', TRANSPORT_MESSAGES.outOfRange);
    this.closing = false;
    try {
      await gatt.connect();
    } catch (error) {
      throw webBluetoothError(error, 'connect');
    }
    // Signal strength comes with advertisements, where the browser offers them; never required.
    this.device.watchAdvertisements?.().catch(() => undefined);
  }

  async discover(): Promise<void> {
    const gatt = this.device.gatt;
    if (!gatt?.connected) throw new TransportError('disconnected', TRANSPORT_MESSAGES.disconnected);
    try {
      const service = await gatt.getPrimaryService(this.target.service);
      this.characteristic = await service.getCharacteristic(this.target.characteristic);
    } catch (error) {
      throw webBluetoothError(error, 'discover', gatt.connected);
    }
  }

  disconnect(): void {
    this.closing = true;
    this.characteristic = undefined;
    if (this.device.gatt?.connected) this.device.gatt.disconnect();
  }

  async write(frame: Uint8Array): Promise<void> {
    checkFrameLength(frame);
    const copy = frame.slice();
    return this.operation((c) =>
      c.writeValueWithResponse ? c.writeValueWithResponse(copy) : c.writeValue(copy),
    );
  }

  async read(): Promise<Uint8Array> {
    const view = await this.operation((c) => c.readValue());
    return new Uint8Array(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
  }

  async rssi(): Promise<number | undefined> {
    return this.lastRssi;
  }

  onLost(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The operation's result, or a 'disconnected' failure as soon as the link drops or the device stays
   * silent for {@link OPERATION_TIMEOUT_MS}: a browser does not always fail an operation in flight.
   */
  private untilLost<T>(operation: Promise<T>): Promise<T> {
    let reject: (error: TransportError) => void = () => {};
    const lost = new Promise<never>((_, fail) => {
      reject = fail;
    });
    this.inFlight.add(reject);
    const timer = setTimeout(
      () =>
        reject(
          new TransportError(
            'disconnected',
            `${TRANSPORT_MESSAGES.disconnected} The device stopped answering.`,
          ),
        ),
      OPERATION_TIMEOUT_MS,
    );
    return Promise.race([operation, lost]).finally(() => {
      clearTimeout(timer);
      this.inFlight.delete(reject);
    });
  }

  /** One GATT operation, queued behind the others; a transient failure is tried once more. */
  private operation<T>(run: (c: GattCharacteristicLike) => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      const attempt = () => {
        const characteristic = this.characteristic;
        if (!characteristic || !this.device.gatt?.connected)
          throw new TransportError('disconnected', TRANSPORT_MESSAGES.disconnected);
        return this.untilLost(run(characteristic));
      };
      try {
        return await attempt();
      } catch (error) {
        if (!isTransientGattError(error)) throw webBluetoothError(error, 'operation', this.connected);
        try {
          return await attempt();
        } catch (again) {
          throw webBluetoothError(again, 'operation', this.connected);
        }
      }
    });
  }
}

/**
 * Devices over the browser's Web Bluetooth: the chooser filtered by the model's service and serial
 * prefix, GATT write (with response) then read on the write definition's characteristic.
 * @example
 * const transport = new WebBluetoothTransport(navigator.bluetooth);
 * const link = await transport.choose(target); // null when the chooser was closed
 */
export class WebBluetoothTransport implements BleTransport {
  readonly kind = 'web-bluetooth' as const;
  private readonly links = new Map<string, WebBluetoothLink>();

  constructor(private readonly bluetooth: BluetoothLike | undefined) {}

  async choose(target: BleTarget): Promise<BleLink | null> {
    const bluetooth = this.requireBluetooth();
    if (bluetooth.getAvailability && !(await bluetooth.getAvailability().catch(() => true)))
      throw new TransportError('unavailable', TRANSPORT_MESSAGES.unavailable);
    let device: BluetoothDeviceLike;
    try {
      device = await bluetooth.requestDevice({
        filters: [{ services: [target.service], namePrefix: target.namePrefix }],
        optionalServices: [target.service],
      });
    } catch (error) {
      if (isChooserCancelled(error)) return null;
      throw webBluetoothError(error, 'choose');
    }
    return this.linkFor(device, target);
  }

  async known(id: string, target: BleTarget): Promise<BleLink | null> {
    const existing = this.links.get(id);
    if (existing) return existing;
    const bluetooth = this.requireBluetooth();
    if (!bluetooth.getDevices) return null;
    const devices = await bluetooth.getDevices().catch(() => []);
    const device = devices.find((d) => d.id === id);
    return device ? this.linkFor(device, target) : null;
  }

  private linkFor(device: BluetoothDeviceLike, target: BleTarget): WebBluetoothLink {
    const link = this.links.get(device.id) ?? new WebBluetoothLink(device, target);
    this.links.set(device.id, link);
    return link;
  }

  private requireBluetooth(): BluetoothLike {
    if (!this.bluetooth) throw new TransportError('unsupported', TRANSPORT_MESSAGES.unsupported);
    return this.bluetooth;
  }
}
