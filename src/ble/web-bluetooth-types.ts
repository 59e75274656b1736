/**
 * The part of the Web Bluetooth API the transport uses (TypeScript's DOM library does not have it).
 * Written from the Web Bluetooth specification; a test stub implements the same shapes.
 */
export interface BluetoothRequestOptions {
  filters: Array<{ services?: string[]; namePrefix?: string }>;
  optionalServices?: string[];
}

export interface GattCharacteristicLike extends Partial<EventTarget> {
  writeValueWithResponse?(value: BufferSource): Promise<void>;
  writeValueWithoutResponse?(value: BufferSource): Promise<void>;
  startNotifications?(): Promise<unknown>;
  /** The last value notified (in a `characteristicvaluechanged` event's target). */
  readonly value?: DataView | null;
  writeValue(value: BufferSource): Promise<void>;
  readValue(): Promise<DataView>;
}

export interface GattServiceLike {
  getCharacteristic(uuid: string): Promise<GattCharacteristicLike>;
}

export interface GattServerLike {
  readonly connected: boolean;
  connect(): Promise<GattServerLike>;
  disconnect(): void;
  getPrimaryService(uuid: string): Promise<GattServiceLike>;
}

export interface BluetoothDeviceLike extends EventTarget {
  readonly id: string;
  readonly name?: string | null;
  readonly gatt?: GattServerLike;
  /** Chromium: starts `advertisementreceived` events, which carry `rssi`. */
  watchAdvertisements?(): Promise<void>;
}

export interface BluetoothLike {
  requestDevice(options: BluetoothRequestOptions): Promise<BluetoothDeviceLike>;
  /** Devices this origin was given before; missing in some browsers. */
  getDevices?(): Promise<BluetoothDeviceLike[]>;
  getAvailability?(): Promise<boolean>;
}

/** `navigator.bluetooth` when the browser has it. */
export function browserBluetooth(): BluetoothLike | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return (navigator as Navigator & { bluetooth?: BluetoothLike }).bluetooth;
}
