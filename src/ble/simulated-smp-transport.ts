import type { SmpDevice } from '../device-sim/smp-device.ts';
import type { SmpLink, SmpTransport } from './smp-link.ts';
import { TRANSPORT_MESSAGES, TransportError } from './transport-error.ts';

type Pause = (ms: number) => Promise<void>;
const pauseFor: Pause = (ms) =>
  ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

export interface SimulatedSmpOptions {
  serialNumber: string;
  device: SmpDevice;
  /** Bytes per second of the emulated radio link (each message waits for its bytes); 0: no wait. */
  bytesPerSecond?: number;
  /** How long the device takes to start after a reset, in milliseconds. */
  restartMs?: number;
  pause?: Pause;
}

/**
 * The demo device's SMP service in the page: the same rules as the radio (a message at a time,
 * answers as notifications, a reset drops the link until the device has started again).
 */
export class SimulatedSmpLink implements SmpLink {
  private up = false;
  /** Counts connections: what was on the air when a link went is lost with it, never heard on the next. */
  private connection = 0;
  /** The device is starting after a reset: connections fail until it is done. */
  private starting: Promise<void> | null = null;
  private readonly messageListeners = new Set<(message: Uint8Array) => void>();
  private readonly lostListeners = new Set<() => void>();
  private readonly pause: Pause;

  constructor(private readonly options: SimulatedSmpOptions) {
    this.pause = options.pause ?? pauseFor;
  }

  get id(): string {
    return `simulated:${this.options.serialNumber}`;
  }

  get name(): string {
    return this.options.serialNumber;
  }

  get connected(): boolean {
    return this.up;
  }

  async connect(): Promise<void> {
    if (this.starting) await this.starting;
    await this.pause(20);
    this.connection += 1;
    this.up = true;
  }

  disconnect(): void {
    this.up = false;
  }

  /** The radio link went away (the demo's "out of range", and tests). */
  drop(): void {
    if (!this.up) return;
    this.up = false;
    for (const listener of [...this.lostListeners]) listener();
  }

  async send(message: Uint8Array): Promise<void> {
    if (!this.up) throw new TransportError('disconnected', TRANSPORT_MESSAGES.disconnected);
    const copy = message.slice();
    const rate = this.options.bytesPerSecond ?? 0;
    const on = this.connection;
    const still = () => this.up && this.connection === on;
    // The radio carries the request, then the device answers; a drop meanwhile loses both, even
    // when the link is up again by then.
    void (async () => {
      if (rate > 0) await this.pause((copy.length * 1000) / rate);
      if (!still()) return;
      const reply = await this.options.device.handle(copy);
      if (!reply) return;
      if (still()) for (const listener of [...this.messageListeners]) listener(reply.answer);
      // A reset the device took resets it, whether or not its answer got through.
      if (reply.reset) this.restart();
    })();
  }

  onMessage(listener: (message: Uint8Array) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  onLost(listener: () => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  private restart(): void {
    this.drop();
    this.starting = (async () => {
      await this.pause(this.options.restartMs ?? 0);
      this.options.device.restart();
      this.starting = null;
    })();
  }
}

/** The demo device's SMP service as a transport: "choosing" picks it at once. */
export class SimulatedSmpTransport implements SmpTransport {
  readonly kind = 'simulated' as const;

  constructor(readonly link: SimulatedSmpLink) {}

  async choose(): Promise<SimulatedSmpLink> {
    return this.link;
  }
}
