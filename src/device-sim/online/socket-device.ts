import WebSocket from 'ws';
import {
  DEVICE_CLOSE,
  type DeviceHello,
  type DeviceSocketAnswer,
  type DeviceTelemetry,
  deviceSocketCommandSchema,
  deviceWelcomeSchema,
} from '../../../contracts/service-comms.ts';

/** The device side that answers frames: a `SimulatedDevice`, or anything with the same face. */
export interface FrameAnswerer {
  request(frame: Uint8Array): Uint8Array;
  connect(): void;
  disconnect(): void;
  /** The `Read live values` answer of this moment, sent as telemetry; a device without it sends none. */
  liveValuesFrame?(): Uint8Array;
}

/** Seconds between telemetry messages when the service's welcome does not say. */
export const DEFAULT_TELEMETRY_INTERVAL_S = 10;

export interface SocketDeviceOptions {
  /** `ws://host:port/config/service-comms/devices/ws` */
  url: string;
  serialNumber: string;
  modelId: string;
  secret: string;
  device: FrameAnswerer;
  /** Drop the socket when the service sent no ping for this long (default 45 s). */
  silenceMs?: number;
  /** First and longest wait before reconnecting (default 500 ms and 30 s, doubling). */
  backoff?: { firstMs: number; maxMs: number };
  /**
   * When the first telemetry goes after a welcome, in ms (default 0: at once). Many devices in
   * one process spread their messages over the interval with a random start.
   */
  firstTelemetryMs?: number;
  /** Headers of the socket's upgrade request (a load test's `X-Forwarded-For`). */
  headers?: Record<string, string>;
  log?: (line: string) => void;
}

/** Close codes after which trying again cannot help: the service refused who the device says it is. */
const FINAL_CODES: number[] = [
  DEVICE_CLOSE.badHello,
  DEVICE_CLOSE.wrongSecret,
  DEVICE_CLOSE.wrongModel,
  DEVICE_CLOSE.replaced,
];

/**
 * A simulated device online: holds a WebSocket to the configuration service, says hello with its
 * secret, answers every command frame exactly as the device answers over Bluetooth, and reconnects
 * with backoff when the service goes away. A refused hello (wrong secret, unknown serial) stops it.
 * @example
 * const online = new SocketDevice({ url, serialNumber, modelId, secret, device: fleet.device(serialNumber) });
 * online.start(); await online.online();
 */
export class SocketDevice {
  private socket: WebSocket | undefined;
  private stopped = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | undefined;
  private silence: NodeJS.Timeout | undefined;
  private telemetry: NodeJS.Timeout | undefined;
  /** Telemetry messages sent since the device was made. */
  telemetrySent = 0;
  private waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** Why the service refused the device, when it did (the device then stops trying). */
  refused: { code: number; reason: string } | undefined;

  constructor(private readonly options: SocketDeviceOptions) {}

  private log(line: string): void {
    (this.options.log ?? console.log)(`[${this.options.serialNumber}] ${line}`);
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Resolves once the service next welcomes the device; rejects when it refuses the device. */
  online(): Promise<void> {
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.silence) clearTimeout(this.silence);
    this.stopTelemetry();
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.close(1000, 'the device is going offline');
    });
  }

  private connect(): void {
    const { url, serialNumber, modelId, secret, device } = this.options;
    const socket = new WebSocket(url, this.options.headers ? { headers: this.options.headers } : {});
    this.socket = socket;
    socket.on('open', () => {
      const hello: DeviceHello = { type: 'hello', serialNumber, modelId, secret };
      socket.send(JSON.stringify(hello));
      this.expectPing();
    });
    socket.on('ping', () => this.expectPing());
    socket.on('message', (raw, isBinary) => {
      if (isBinary) return;
      let message: unknown;
      try {
        message = JSON.parse(raw.toString());
      } catch {
        return;
      }
      const welcome = deviceWelcomeSchema.safeParse(message);
      if (welcome.success) {
        this.attempt = 0;
        device.connect();
        this.log(`online at ${url}`);
        this.startTelemetry(socket, welcome.data.telemetryIntervalS);
        for (const waiter of this.waiting.splice(0)) waiter.resolve();
        return;
      }
      const command = deviceSocketCommandSchema.safeParse(message);
      if (!command.success) return;
      const answer: DeviceSocketAnswer = {
        type: 'answer',
        id: command.data.id,
        data: [...device.request(Uint8Array.from(command.data.data))],
      };
      socket.send(JSON.stringify(answer));
    });
    socket.on('error', (error) => this.log(`connection failed: ${error.message}`));
    socket.on('close', (code, reason) => {
      device.disconnect();
      if (this.silence) clearTimeout(this.silence);
      this.stopTelemetry();
      if (FINAL_CODES.includes(code)) {
        this.refused = { code, reason: reason.toString() };
        this.log(`refused by the service (${code}): ${reason.toString()}; not trying again`);
        const refusal = new Error(`${this.options.serialNumber} refused (${code}): ${reason.toString()}`);
        for (const waiter of this.waiting.splice(0)) waiter.reject(refusal);
        return;
      }
      if (this.stopped) return;
      this.reconnectLater();
    });
  }

  /** Send the live values every interval the service asked for, for as long as this socket is open. */
  private startTelemetry(socket: WebSocket, intervalS = DEFAULT_TELEMETRY_INTERVAL_S): void {
    const frame = this.options.device.liveValuesFrame?.bind(this.options.device);
    if (!frame) return;
    this.stopTelemetry();
    const send = () => {
      if (socket.readyState !== WebSocket.OPEN) return;
      const message: DeviceTelemetry = { type: 'telemetry', data: [...frame()] };
      socket.send(JSON.stringify(message));
      this.telemetrySent += 1;
    };
    this.telemetry = setTimeout(() => {
      send();
      this.telemetry = setInterval(send, intervalS * 1000);
    }, this.options.firstTelemetryMs ?? 0);
  }

  private stopTelemetry(): void {
    if (this.telemetry) clearTimeout(this.telemetry);
    this.telemetry = undefined;
  }

  /** The service pings regularly; silence for longer than that means the connection is dead. */
  private expectPing(): void {
    if (this.silence) clearTimeout(this.silence);
    this.silence = setTimeout(() => {
      this.log('no ping from the service: dropping the connection');
      this.socket?.terminate();
    }, this.options.silenceMs ?? 45_000);
  }

  private reconnectLater(): void {
    const { firstMs, maxMs } = this.options.backoff ?? { firstMs: 500, maxMs: 30_000 };
    const base = Math.min(maxMs, firstMs * 2 ** this.attempt);
    // Jitter, so that many devices do not all knock at the same moment after a restart.
    const wait = Math.round(base / 2 + Math.random() * (base / 2));
    this.attempt += 1;
    this.log(`offline; reconnecting in ${wait} ms`);
    this.retry = setTimeout(() => this.connect(), wait);
  }
}
