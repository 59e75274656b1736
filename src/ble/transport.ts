/** Which device a transport looks for: the model's write definition and advertised name prefix. */
export interface BleTarget {
  /** Primary service UUID of the write definition. */
  service: string;
  /** Characteristic written with a command and read for its answer. */
  characteristic: string;
  /** Size of every frame in bytes. */
  bufferSize: number;
  /** Devices advertise their serial number as their name; it starts with the model's serialPrefix. */
  namePrefix: string;
}

/**
 * One chosen device. `connect` opens the GATT link, `discover` finds the service and characteristic;
 * then frames are written and answers read, one operation at a time. A link that drops on its own
 * tells its `onLost` listeners; `disconnect` by the caller does not.
 */
export interface BleLink {
  /** Stable id the browser gives the device; used to find it again without the chooser. */
  readonly id: string;
  /** Advertised name: the device's serial number. */
  readonly name: string;
  readonly connected: boolean;
  /** @throws TransportError 'out-of-range', 'unavailable'. */
  connect(): Promise<void>;
  /** @throws TransportError 'missing-service', 'disconnected'. */
  discover(): Promise<void>;
  disconnect(): void;
  /** Writes one frame (with response). @throws TransportError 'frame-too-long', 'disconnected', … */
  write(frame: Uint8Array): Promise<void>;
  /** Reads the answer to the last frame written. @throws TransportError 'disconnected', … */
  read(): Promise<Uint8Array>;
  /** Received signal strength in dBm, when the platform reports one. */
  rssi(): Promise<number | undefined>;
  /** Called when the link drops without the caller asking; returns an unsubscribe function. */
  onLost(listener: () => void): () => void;
}

/** A way to reach devices: the browser's Web Bluetooth, or the simulator in the page. */
export interface BleTransport {
  readonly kind: 'web-bluetooth' | 'simulated';
  /**
   * Lets the person choose a device (the browser's chooser for Web Bluetooth).
   * @returns the link, or null when the person closed the chooser without choosing.
   * @throws TransportError 'unsupported' or 'unavailable'.
   */
  choose(target: BleTarget): Promise<BleLink | null>;
  /**
   * A device chosen before, found again without the chooser.
   * @returns null when the browser no longer knows it (or cannot say): the chooser is needed.
   */
  known(id: string, target: BleTarget): Promise<BleLink | null>;
}
