import WebSocket from 'ws';
import {
  DEVICE_CLOSE,
  type DeviceHello,
  type DeviceSocketAnswer,
  type DeviceTelemetry,
  deviceAckSchema,
  deviceSocketCommandSchema,
  deviceWelcomeSchema,
  TELEMETRY_RESEND_PER_S,
} from '../../../contracts/service-comms.ts';
import { telemetryMessage } from '../../codec/telemetry-message.ts';
import { readSmpSocketMessage, smpSocketMessage } from '../../smp/smp-socket.ts';
import type { BootOutcome } from '../firmware-slots.ts';
import type { SmpReply } from '../smp-device.ts';
import { type KeptReading, TelemetryBacklog } from './telemetry-backlog.ts';

/** The device side that answers frames: a `SimulatedDevice`, or anything with the same face. */
export interface FrameAnswerer {
  request(frame: Uint8Array): Uint8Array;
  connect(): void;
  disconnect(): void;
  /** The `Read live values` answer of this moment, sent as telemetry; a device without it sends none. */
  liveValuesFrame?(): Uint8Array;
}

/** The device's SMP side (`SmpDevice`): answers SMP requests, and starts again after a reset. */
export interface SmpAnswerer {
  handle(bytes: Uint8Array): Promise<SmpReply | null>;
  restart(): BootOutcome;
  /** The version of the image that runs: what the hello says. */
  readonly runningVersion: string;
}

/** Seconds between telemetry messages when the service's welcome does not say. */
export const DEFAULT_TELEMETRY_INTERVAL_S = 10;

export interface SocketDeviceOptions {
  /** `ws://host:port/config/service-comms/devices/ws` */
  url: string;
  serialNumber: string;
  modelId: string;
  secret: string;
  /** The firmware version said in the hello (the version of the image the device runs). */
  firmwareVersion?: string;
  device: FrameAnswerer;
  /**
   * Firmware updates over the socket (binary SMP messages, `src/smp/smp-socket.ts`): after an
   * SMP reset the device closes its socket, starts again (MCUboot swaps or reverts) and connects
   * with the version that runs then. Without it, SMP messages get no answer.
   */
  smp?: SmpAnswerer;
  /** How long a start takes after an SMP reset, in ms (default 300). */
  restartMs?: number;
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
  /** Send telemetry as binary messages (a 5-byte header, then the frame) instead of JSON. */
  binary?: boolean;
  /**
   * Readings the device kept from before it started (firmware keeps them in flash across a
   * restart), oldest first: sent first, as any kept reading. {@link pastReadings} makes them.
   */
  kept?: readonly { frame: Uint8Array; takenAt: number }[];
  /** Told of each reading the device takes (load and fault tests count what was produced). */
  onReading?: (reading: KeptReading) => void;
  /** Told of the readings each acknowledgement covers, and when it came. */
  onAcknowledged?: (readings: KeptReading[], at: number) => void;
  log?: (line: string) => void;
}

/** Seconds of readings a device keeps while the service does not acknowledge them: a day. */
export const BACKLOG_SECONDS = 86_400;

/** Close codes that say: connect again at once (the balancer sends the device elsewhere). */
const AT_ONCE_CODES: number[] = [DEVICE_CLOSE.serviceRestart];
/** Reconnecting at once is spread over this much, so that a process's devices do not all knock together. */
const AT_ONCE_JITTER_MS = 1000;

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
 * with backoff when the service goes away (at once when the service says it is restarting). A
 * refused hello (wrong secret, unknown serial) stops it.
 *
 * It takes a reading every telemetry interval whether it is connected or not, numbers it (`seq`)
 * and keeps it until the service acknowledges it: a day of readings at most, the oldest dropped
 * first. Kept readings go out oldest first, at most {@link TELEMETRY_RESEND_PER_S} a second, and
 * after a reconnect everything kept goes out again (the service stores a reading once however
 * often it comes).
 * @example
 * const online = new SocketDevice({ url, serialNumber, modelId, secret, device: fleet.device(serialNumber) });
 * online.start(); await online.online();
 */
export class SocketDevice {
  private socket: WebSocket | undefined;
  /** The socket the service welcomed: where telemetry goes. */
  private welcomed: WebSocket | undefined;
  private stopped = false;
  private attempt = 0;
  private retry: NodeJS.Timeout | undefined;
  private silence: NodeJS.Timeout | undefined;
  private sampler: NodeJS.Timeout | undefined;
  private pumpTimer: NodeJS.Timeout | undefined;
  private intervalS = DEFAULT_TELEMETRY_INTERVAL_S;
  private lastTakenAt: number | undefined;
  private readonly backlog = new TelemetryBacklog(BACKLOG_SECONDS / DEFAULT_TELEMETRY_INTERVAL_S);
  /** Sends allowed now (refilled at TELEMETRY_RESEND_PER_S a second). */
  private tokens = TELEMETRY_RESEND_PER_S;
  private tokensAt = Date.now();
  /** Readings taken since the device was made. */
  readingsTaken = 0;
  /** Telemetry messages sent (a reading sent again counts again). */
  messagesSent = 0;
  /** Readings the service acknowledged. */
  acknowledged = 0;
  private waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** Set while the device closes its socket to start again after an SMP reset. */
  private restarting = false;
  /** Why the service refused the device, when it did (the device then stops trying). */
  refused: { code: number; reason: string } | undefined;
  /**
   * Why the device's sockets closed while it meant to stay online, by cause (`1013 the service
   * holds …`, `1006`, `error: …` for a connection that failed), and how often: what a run's
   * reconnects, and readings sent again or lost, came from.
   */
  readonly disconnects = new Map<string, number>();

  constructor(private readonly options: SocketDeviceOptions) {
    for (const reading of options.kept ?? []) this.backlog.take(reading.frame, reading.takenAt);
  }

  private log(line: string): void {
    (this.options.log ?? console.log)(`[${this.options.serialNumber}] ${line}`);
  }

  /** Connect, and take readings from now on. */
  start(): void {
    this.stopped = false;
    this.connect();
    this.startSampling(this.options.firstTelemetryMs ?? 0);
  }

  /** Readings kept and not yet acknowledged. */
  get kept(): number {
    return this.backlog.size;
  }

  /** Whether the service welcomed the device on the socket it holds now. */
  get isOnline(): boolean {
    return this.welcomed?.readyState === WebSocket.OPEN;
  }

  /** Readings dropped because a day's worth was kept already. */
  get backlogDropped(): number {
    return this.backlog.dropped;
  }

  /** Take no more readings; what is kept still goes out (a test's end: wait for `kept` to reach 0). */
  stopReadings(): void {
    this.stopSampling();
  }

  /** Resolves once the service next welcomes the device; rejects when it refuses the device. */
  online(): Promise<void> {
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.silence) clearTimeout(this.silence);
    if (this.sampler) clearTimeout(this.sampler);
    this.sampler = undefined;
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
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
    let opened = false;
    socket.on('open', () => {
      opened = true;
      const firmwareVersion = this.options.smp?.runningVersion ?? this.options.firmwareVersion;
      const hello: DeviceHello = {
        type: 'hello',
        serialNumber,
        modelId,
        secret,
        ...(firmwareVersion ? { firmwareVersion } : {}),
      };
      socket.send(JSON.stringify(hello));
      this.expectPing();
    });
    socket.on('ping', () => this.expectPing());
    socket.on('message', (raw, isBinary) => {
      if (isBinary) {
        const bytes = Array.isArray(raw) ? Buffer.concat(raw) : new Uint8Array(raw as ArrayBuffer);
        this.smpRequest(socket, bytes);
        return;
      }
      let message: unknown;
      try {
        message = JSON.parse(raw.toString());
      } catch {
        return;
      }
      const ack = deviceAckSchema.safeParse(message);
      if (ack.success) {
        const done = this.backlog.acknowledge(ack.data.seq);
        this.acknowledged += done.length;
        if (done.length > 0) this.options.onAcknowledged?.(done, Date.now());
        return;
      }
      const welcome = deviceWelcomeSchema.safeParse(message);
      if (welcome.success) {
        this.attempt = 0;
        device.connect();
        this.log(`online at ${url}`);
        this.welcomed = socket;
        this.followInterval(welcome.data.telemetryIntervalS ?? DEFAULT_TELEMETRY_INTERVAL_S);
        this.backlog.rewind();
        this.pump();
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
    socket.on('error', (error) => {
      if (!this.stopped) this.countDisconnect(`error: ${error.message}`);
      this.log(`connection failed: ${error.message}`);
    });
    socket.on('close', (code, reason) => {
      device.disconnect();
      // A socket that never opened was counted by its error already.
      if (!this.stopped && !this.restarting && opened)
        this.countDisconnect(`${code}${reason.length > 0 ? ` ${reason.toString()}` : ''}`);
      if (this.welcomed === socket) this.welcomed = undefined;
      if (this.silence) clearTimeout(this.silence);
      if (this.restarting && !this.stopped) {
        this.restarting = false;
        const outcome = this.options.smp?.restart();
        this.log(`started again (${outcome}): running ${this.options.smp?.runningVersion}`);
        this.retry = setTimeout(() => this.connect(), this.options.restartMs ?? 300);
        return;
      }
      if (FINAL_CODES.includes(code)) {
        this.refused = { code, reason: reason.toString() };
        this.log(`refused by the service (${code}): ${reason.toString()}; not trying again`);
        const refusal = new Error(`${this.options.serialNumber} refused (${code}): ${reason.toString()}`);
        for (const waiter of this.waiting.splice(0)) waiter.reject(refusal);
        this.stopSampling();
        return;
      }
      if (this.stopped) return;
      this.reconnectLater(AT_ONCE_CODES.includes(code));
    });
  }

  /** An SMP request from the service: answered; a reset closes the socket and starts the device again. */
  private smpRequest(socket: WebSocket, bytes: Uint8Array): void {
    const request = readSmpSocketMessage(bytes);
    const smp = this.options.smp;
    if (!request || !smp) return;
    smp
      .handle(request)
      .then((reply) => {
        if (!reply || socket.readyState !== WebSocket.OPEN) return;
        socket.send(smpSocketMessage(reply.answer), () => {
          if (!reply.reset) return;
          this.restarting = true;
          socket.close(1000, 'the device is restarting');
        });
      })
      .catch((error: unknown) => this.log(`SMP failed: ${(error as Error).message}`));
  }

  /** Take a reading every interval from `firstMs` on, connected or not. */
  private startSampling(firstMs: number): void {
    if (!this.options.device.liveValuesFrame) return;
    this.stopSampling();
    const next = (delay: number) => {
      this.sampler = setTimeout(() => {
        const wait = untilNextSecond(this.lastTakenAt, Date.now());
        if (wait > 0) {
          next(wait);
          return;
        }
        this.takeReading();
        next(this.intervalS * 1000);
      }, delay);
    };
    next(firstMs);
  }

  private stopSampling(): void {
    if (this.sampler) clearTimeout(this.sampler);
    this.sampler = undefined;
  }

  /** The service names the interval in its welcome: readings at that pace, a day of them kept. */
  private followInterval(intervalS: number): void {
    this.backlog.resize(Math.ceil(BACKLOG_SECONDS / intervalS));
    if (intervalS === this.intervalS) return;
    this.intervalS = intervalS;
    // The next reading one new interval after the last (a first reading still to come stays put).
    if (this.sampler && this.lastTakenAt !== undefined)
      this.startSampling(Math.max(0, this.lastTakenAt + intervalS * 1000 - Date.now()));
  }

  /** Take the live values now, keep them, and send what waits. */
  private takeReading(): void {
    const frame = this.options.device.liveValuesFrame?.();
    if (!frame) return;
    const reading = this.backlog.take(frame, Date.now());
    this.lastTakenAt = reading.takenAt;
    this.readingsTaken += 1;
    this.options.onReading?.(reading);
    this.pump();
  }

  /** Send kept readings oldest first, at most TELEMETRY_RESEND_PER_S a second, while welcomed. */
  private pump(): void {
    if (this.pumpTimer) return;
    const socket = this.welcomed;
    if (!socket) return;
    const now = Date.now();
    this.tokens = Math.min(
      TELEMETRY_RESEND_PER_S,
      this.tokens + ((now - this.tokensAt) / 1000) * TELEMETRY_RESEND_PER_S,
    );
    this.tokensAt = now;
    while (this.tokens >= 1 && socket.readyState === WebSocket.OPEN) {
      const reading = this.backlog.next();
      if (!reading) return;
      this.tokens -= 1;
      this.send(socket, reading);
    }
    if (!this.backlog.pending || socket.readyState !== WebSocket.OPEN) return;
    this.pumpTimer = setTimeout(
      () => {
        this.pumpTimer = undefined;
        this.pump();
      },
      Math.ceil(1000 / TELEMETRY_RESEND_PER_S),
    );
  }

  private send(socket: WebSocket, reading: KeptReading): void {
    if (this.options.binary) socket.send(telemetryMessage(reading.seq, reading.frame));
    else {
      const message: DeviceTelemetry = { type: 'telemetry', seq: reading.seq, data: [...reading.frame] };
      socket.send(JSON.stringify(message));
    }
    this.messagesSent += 1;
  }

  /** The service pings regularly; silence for longer than that means the connection is dead. */
  private expectPing(): void {
    if (this.silence) clearTimeout(this.silence);
    this.silence = setTimeout(() => {
      this.log('no ping from the service: dropping the connection');
      this.socket?.terminate();
    }, this.options.silenceMs ?? 45_000);
  }

  private countDisconnect(cause: string): void {
    this.disconnects.set(cause, (this.disconnects.get(cause) ?? 0) + 1);
  }

  /** Connect again after a backoff; `atOnce`: after a moment's jitter only (many devices move at once). */
  private reconnectLater(atOnce = false): void {
    const { firstMs, maxMs } = this.options.backoff ?? { firstMs: 500, maxMs: 30_000 };
    const base = Math.min(maxMs, firstMs * 2 ** this.attempt);
    // Jitter, so that many devices do not all knock at the same moment after a restart.
    const wait = Math.round(
      atOnce ? Math.random() * AT_ONCE_JITTER_MS : base / 2 + Math.random() * (base / 2),
    );
    if (!atOnce) this.attempt += 1;
    this.log(`offline; reconnecting in ${wait} ms`);
    this.retry = setTimeout(() => this.connect(), wait);
  }
}

/**
 * How long to wait before a reading may be taken at `now` (epoch ms): 0, or until the next whole
 * second when the last reading (`lastTakenAt`) was taken in the same one. A reading's time is in
 * whole seconds and the service keeps one reading per device and time, so a second reading in one
 * second would be taken as the first sent again, and lost. A one-second timer does fire a
 * millisecond early now and then (about 2 readings in 100,000 at 5,000 devices).
 * @example untilNextSecond(1_000_000, 1_000_999) // 1: wait for 1_001_000
 */
export function untilNextSecond(lastTakenAt: number | undefined, now: number): number {
  if (lastTakenAt === undefined || Math.floor(now / 1000) !== Math.floor(lastTakenAt / 1000)) return 0;
  return 1000 - (now % 1000);
}

/**
 * The readings a device took every `intervalS` from `from` to `to` (epoch ms) while its link was
 * down, as it would have taken them: `liveValuesAt(t)` answers the device's `Read live values` at
 * the instant `t` (a simulated device on a clock set to `t`). Oldest first, for
 * {@link SocketDeviceOptions.kept}.
 * @example pastReadings((t) => { clock = t; return device.liveValuesFrame(); }, Date.now() - 1_800_000, Date.now(), 10)
 */
export function pastReadings(
  liveValuesAt: (t: number) => Uint8Array,
  from: number,
  to: number,
  intervalS: number,
): { frame: Uint8Array; takenAt: number }[] {
  const readings: { frame: Uint8Array; takenAt: number }[] = [];
  for (let t = from; t < to; t += intervalS * 1000) readings.push({ frame: liveValuesAt(t), takenAt: t });
  return readings;
}
