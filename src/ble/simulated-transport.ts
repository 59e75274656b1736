import type { SimulatedDevice } from '../device-sim/simulated-device.ts';
import { OperationQueue } from './operation-queue.ts';
import type { BleLink, BleTarget, BleTransport } from './transport.ts';
import { checkFrameLength, TRANSPORT_MESSAGES, TransportError } from './transport-error.ts';

/** Milliseconds to wait; tests pass one that does not wait. */
type Pause = (ms: number) => Promise<void>;

const pauseFor: Pause = (ms) =>
  ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

/** A link to the simulator in the page: same rules as a radio link, without the radio. */
export class SimulatedLink implements BleLink {
  private isConnected = false;
  private discovered = false;
  private readonly queue = new OperationQueue();
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly device: SimulatedDevice,
    private readonly latencyMs: number,
    private readonly pause: Pause,
  ) {}

  get id(): string {
    return `simulated:${this.device.serialNumber}`;
  }

  get name(): string {
    return this.device.serialNumber;
  }

  get connected(): boolean {
    return this.isConnected && this.discovered;
  }

  async connect(): Promise<void> {
    await this.pause(this.latencyMs);
    this.device.connect();
    this.isConnected = true;
  }

  async discover(): Promise<void> {
    await this.pause(this.latencyMs);
    if (!this.isConnected) throw new TransportError('disconnected', TRANSPORT_MESSAGES.disconnected);
    this.discovered = true;
  }

  disconnect(): void {
    this.close();
  }

  /** The radio link went away (a demo's "walk out of range", and tests). */
  drop(): void {
    if (!this.isConnected) return;
    this.close();
    for (const listener of [...this.listeners]) listener();
  }

  async write(frame: Uint8Array): Promise<void> {
    checkFrameLength(frame);
    const copy = frame.slice();
    return this.operation(() => this.device.write(copy));
  }

  read(): Promise<Uint8Array> {
    return this.operation(() => this.device.read());
  }

  async rssi(): Promise<number | undefined> {
    return this.isConnected ? this.device.rssi() : undefined;
  }

  onLost(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private close(): void {
    if (this.isConnected) this.device.disconnect();
    this.isConnected = false;
    this.discovered = false;
  }

  private operation<T>(run: () => T): Promise<T> {
    return this.queue.run(async () => {
      await this.pause(this.latencyMs);
      if (!this.connected) throw new TransportError('disconnected', TRANSPORT_MESSAGES.disconnected);
      return run();
    });
  }
}

export interface SimulatedTransportOptions {
  /** The simulated device to offer for a target (the demo device of its model). */
  deviceFor: (target: BleTarget) => SimulatedDevice;
  /** Delay of every step, so that a demo shows its states; 0 by default. */
  latencyMs?: number;
  pause?: Pause;
}

/**
 * The simulator in the page as a transport: offered where Web Bluetooth is missing and whenever a
 * person asks for the demo device. "Choosing" picks the demo device at once.
 * @example const link = await new SimulatedTransport({ deviceFor: () => fleet.device(serial) }).choose(target);
 */
export class SimulatedTransport implements BleTransport {
  readonly kind = 'simulated' as const;
  private readonly links = new Map<string, SimulatedLink>();

  constructor(private readonly options: SimulatedTransportOptions) {}

  async choose(target: BleTarget): Promise<SimulatedLink> {
    const device = this.options.deviceFor(target);
    const id = `simulated:${device.serialNumber}`;
    const link =
      this.links.get(id) ??
      new SimulatedLink(device, this.options.latencyMs ?? 0, this.options.pause ?? pauseFor);
    this.links.set(id, link);
    return link;
  }

  async known(id: string): Promise<SimulatedLink | null> {
    return this.links.get(id) ?? null;
  }
}
