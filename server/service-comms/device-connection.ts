import type WebSocket from 'ws';
import {
  DEVICE_CLOSE,
  type DeviceSocketCommand,
  deviceSocketAnswerSchema,
  TELEMETRY_MAX_PER_S,
} from '../../contracts/service-comms.ts';
import { readSmpSocketMessage, smpSocketMessage } from '../../src/smp/smp-socket.ts';
import type { LogSummary } from '../logging/log-summary.ts';
import { AckWindow, type TelemetryReceipt } from './ack-window.ts';
import { closeSocket } from './close-socket.ts';
import { AwaitedAnswers, type Delivery, offline, type SmpDelivery, timedOut } from './delivery.ts';
import type { RegisteredDevice } from './device-secrets.ts';
import { Pace } from './pace.ts';
import { readBinaryTelemetry, readJsonTelemetry, type TelemetryInput } from './telemetry-input.ts';

/** Where a device's telemetry goes (the monitoring ingest): what became of each frame. */
export interface TelemetrySink {
  /** A frame from a device whose socket proved who it is: queued, refused for good, or turned away. */
  accept(
    source: { id: number; serial: string; modelId: string },
    frame: Uint8Array,
    receivedAt: number,
    receipt?: TelemetryReceipt,
  ): 'queued' | 'refused' | 'turned-away';
  /** Count a message the socket refused itself, before its frame was read. */
  refused(kind: 'unauthenticated' | 'malformed' | 'flood', source?: { serial: string }): void;
}

/** A `DeviceAck` as text, written out: one goes to every device after every batch. */
const ackText = (seq: number) => `{"type":"ack","seq":${seq}}`;

/** Whether a parsed message says it is telemetry (its shape and frame are checked after). */
export function isTelemetryMessage(message: unknown): boolean {
  return (
    typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'telemetry'
  );
}

/**
 * One device's accepted socket. Commands go out one at a time, as over Bluetooth (write, then read
 * the answer): a second command waits for the first's answer or time-out. A socket that closes
 * answers every waiting command `device_offline`.
 */
export class DeviceConnection {
  readonly connectedAt = new Date();
  /** Answered the last ping; a socket that did not by the next one is dropped. */
  alive = true;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly answers = new AwaitedAnswers();
  private closed = false;
  /** Stopping: telemetry is no longer taken (the device sends it again elsewhere). */
  private taking = true;
  private readonly acks: AckWindow;
  private readonly pace = new Pace(TELEMETRY_MAX_PER_S, Date.now());
  /** SMP exchanges go one at a time, as over Bluetooth: the one waiting for its answer. */
  private smpTail: Promise<unknown> = Promise.resolve();
  private smpWaiting: ((answer: SmpDelivery) => void) | undefined;

  constructor(
    readonly device: RegisteredDevice,
    readonly socket: WebSocket,
    private readonly log: LogSummary,
    private readonly telemetry?: TelemetrySink,
  ) {
    socket.on('pong', () => {
      this.alive = true;
    });
    this.acks = new AckWindow((seq) => {
      if (!this.closed) socket.send(ackText(seq));
    });
  }

  /** Deliver a frame and wait for its answer; the time-out counts from now, queue included. */
  send(data: number[], timeoutMs: number): Promise<Delivery> {
    const deadline = Date.now() + timeoutMs;
    const run = () => (this.closed ? Promise.resolve(offline) : this.exchange(data, deadline - Date.now()));
    const result = this.tail.then(run, run);
    this.tail = result;
    return result;
  }

  private exchange(data: number[], timeoutMs: number): Promise<Delivery> {
    if (timeoutMs <= 0) return Promise.resolve(timedOut);
    const { id, delivery } = this.answers.open(timeoutMs);
    const command: DeviceSocketCommand = { type: 'command', id, data };
    this.socket.send(JSON.stringify(command), (error) => {
      if (error) this.answers.settle(id, offline);
    });
    return delivery;
  }

  /**
   * Send one SMP message (binary, `src/smp/smp-socket.ts`) and wait for the device's next SMP
   * message, its answer; the time-out counts from when it is sent.
   */
  smp(message: Uint8Array, timeoutMs: number): Promise<SmpDelivery> {
    const run = () => (this.closed ? Promise.resolve(offline) : this.smpExchange(message, timeoutMs));
    const result = this.smpTail.then(run, run);
    this.smpTail = result;
    return result;
  }

  private smpExchange(message: Uint8Array, timeoutMs: number): Promise<SmpDelivery> {
    return new Promise<SmpDelivery>((resolve) => {
      const timer = setTimeout(() => settle(timedOut), timeoutMs);
      const settle = (answer: SmpDelivery) => {
        clearTimeout(timer);
        if (this.smpWaiting === settle) this.smpWaiting = undefined;
        resolve(answer);
      };
      this.smpWaiting = settle;
      this.socket.send(smpSocketMessage(message), (error) => {
        if (error) settle(offline);
      });
    });
  }

  /** A message from the device that is not an answer: ignored, and said so (summarised). */
  ignored(what: string): void {
    this.log.note(
      '[service-comms] ignored device messages that are not answers',
      `[service-comms] ${this.device.serial}: ignored ${what} that is not an answer`,
    );
  }

  /** A text message from the device after its hello: an answer, telemetry, or something to ignore (and say so). */
  receive(text: string, receivedAt = Date.now()): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (this.telemetry && isTelemetryMessage(parsed)) {
      this.telemetryMessage(readJsonTelemetry(parsed), receivedAt);
      return;
    }
    const answer = deviceSocketAnswerSchema.safeParse(parsed);
    if (!answer.success) {
      this.ignored('a message');
      return;
    }
    this.answers.settle(answer.data.id, { ok: true, data: answer.data.data });
  }

  /** A binary message from the device after its hello: telemetry in its binary form, or ignored. */
  receiveBinary(bytes: Uint8Array, receivedAt = Date.now()): void {
    const smp = readSmpSocketMessage(bytes);
    if (smp) {
      if (this.smpWaiting) this.smpWaiting({ ok: true, data: smp.slice() });
      else this.ignored('an SMP message');
      return;
    }
    if (!this.telemetry) {
      this.ignored('a binary message');
      return;
    }
    this.telemetryMessage(readBinaryTelemetry(bytes), receivedAt);
  }

  /**
   * One telemetry message: refused as malformed or over the device's pace (counted, acknowledged
   * when it has a `seq`, since sending it again would not help), else handed to the sink with its
   * receipt. One the sink turns away (too many readings wait) closes the socket: the device keeps
   * it and what followed, and sends them again when it is back.
   */
  private telemetryMessage(input: TelemetryInput | undefined, receivedAt: number): void {
    const sink = this.telemetry;
    if (!sink || !this.taking) return;
    if (!input) {
      sink.refused('malformed', this.device);
      return;
    }
    const receipt = input.seq === undefined ? undefined : this.acks.receive(input.seq);
    if (!this.pace.take(receivedAt)) {
      sink.refused('flood', this.device);
      receipt?.settle();
      receipt?.flush();
      return;
    }
    if (sink.accept(this.device, input.frame, receivedAt, receipt) === 'turned-away') {
      this.taking = false;
      closeSocket(
        this.socket,
        DEVICE_CLOSE.tryAgainLater,
        'the service holds too many readings; send them again later',
      );
    }
  }

  /** Stop taking telemetry (the process is stopping): what comes now is sent again elsewhere. */
  stopTaking(): void {
    this.taking = false;
  }

  /** Telemetry messages taken and not yet stored or refused (tests, diagnostics). */
  get unacknowledged(): number {
    return this.acks.waiting;
  }

  /** The socket closed: every waiting command answers `device_offline`. */
  closedNow(): void {
    this.closed = true;
    this.taking = false;
    this.answers.settleAll(offline);
    this.smpWaiting?.(offline);
  }
}
