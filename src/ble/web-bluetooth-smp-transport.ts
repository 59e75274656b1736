import { SMP_CHARACTERISTIC, SMP_SERVICE } from '../smp/smp-codes.ts';
import { SmpReassembler } from '../smp/smp-frame.ts';
import type { SmpLink, SmpTransport } from './smp-link.ts';
import { TRANSPORT_MESSAGES, TransportError } from './transport-error.ts';
import { isChooserCancelled, webBluetoothError } from './web-bluetooth-errors.ts';
import type { BluetoothDeviceLike, BluetoothLike, GattCharacteristicLike } from './web-bluetooth-types.ts';

/**
 * Bytes of one write: a message longer than this goes in several writes, which MCUmgr joins
 * (the payload of the common 247-byte ATT MTU; the browser gives no way to ask for the MTU).
 */
export const SMP_WRITE_PIECE = 244;

class WebBluetoothSmpLink implements SmpLink {
  private characteristic: GattCharacteristicLike | undefined;
  private readonly reassembler = new SmpReassembler();
  private readonly messageListeners = new Set<(message: Uint8Array) => void>();
  private readonly lostListeners = new Set<() => void>();
  private closing = false;

  constructor(private readonly device: BluetoothDeviceLike) {
    device.addEventListener('gattserverdisconnected', () => {
      this.characteristic = undefined;
      this.reassembler.reset();
      if (this.closing) return;
      for (const listener of [...this.lostListeners]) listener();
    });
  }

  get id(): string {
    return this.device.id;
  }

  get name(): string {
    return this.device.name ?? '';
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
    try {
      const service = await gatt.getPrimaryService(SMP_SERVICE);
      const characteristic = await service.getCharacteristic(SMP_CHARACTERISTIC);
      characteristic.addEventListener?.('characteristicvaluechanged', (event) => {
        const view = (event.target as GattCharacteristicLike | null)?.value;
        if (!view) return;
        const piece = new Uint8Array(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
        for (const message of this.reassembler.push(piece))
          for (const listener of [...this.messageListeners]) listener(message);
      });
      if (!characteristic.startNotifications || !characteristic.writeValueWithoutResponse)
        throw new TransportError('missing-service', 'This device does not offer firmware updates (SMP).');
      await characteristic.startNotifications();
      this.characteristic = characteristic;
    } catch (error) {
      if (error instanceof TransportError) throw error;
      throw webBluetoothError(error, 'discover', gatt.connected);
    }
  }

  disconnect(): void {
    this.closing = true;
    this.characteristic = undefined;
    if (this.device.gatt?.connected) this.device.gatt.disconnect();
  }

  async send(message: Uint8Array): Promise<void> {
    const characteristic = this.characteristic;
    if (!characteristic?.writeValueWithoutResponse)
      throw new TransportError('disconnected', TRANSPORT_MESSAGES.disconnected);
    for (let at = 0; at < message.length; at += SMP_WRITE_PIECE) {
      try {
        await characteristic.writeValueWithoutResponse(message.slice(at, at + SMP_WRITE_PIECE));
      } catch (error) {
        throw webBluetoothError(error, 'operation', this.device.gatt?.connected === true);
      }
    }
  }

  onMessage(listener: (message: Uint8Array) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }
}

/** Firmware updates over the browser's Web Bluetooth, on the SMP service. */
export class WebBluetoothSmpTransport implements SmpTransport {
  readonly kind = 'web-bluetooth' as const;

  constructor(private readonly bluetooth: BluetoothLike) {}

  async choose(namePrefix: string): Promise<SmpLink | null> {
    try {
      const device = await this.bluetooth.requestDevice({
        filters: [{ namePrefix }],
        optionalServices: [SMP_SERVICE],
      });
      return new WebBluetoothSmpLink(device);
    } catch (error) {
      if (isChooserCancelled(error)) return null;
      throw webBluetoothError(error, 'choose');
    }
  }
}
