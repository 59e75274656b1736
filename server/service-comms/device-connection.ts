import type WebSocket from 'ws';
import { type DeviceSocketCommand, deviceSocketAnswerSchema } from '../../contracts/service-comms.ts';
import type { LogSummary } from '../logging/log-summary.ts';
import { AwaitedAnswers, type Delivery, offline, timedOut } from './delivery.ts';
import type { RegisteredDevice } from './device-secrets.ts';

/** Where a device's telemetry messages go (the monitoring ingest); counts what it refuses. */
export interface TelemetrySink {
  /** A `{type: "telemetry"}` message from a device whose socket proved who it is. */
  accept(source: { id: number; serial: string; modelId: string }, message: unknown, receivedAt: number): void;
  /** Count a refusal the socket found itself (`unauthenticated`). */
  count(kind: 'unauthenticated'): void;
  /** The device's socket closed. */
  forget(deviceId: number): void;
}

/** Whether a parsed message says it is telemetry (its frame is checked by the sink). */
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

  constructor(
    readonly device: RegisteredDevice,
    readonly socket: WebSocket,
    private readonly log: LogSummary,
    private readonly telemetry?: TelemetrySink,
  ) {
    socket.on('pong', () => {
      this.alive = true;
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

  /** A message from the device that is not an answer: ignored, and said so (summarised). */
  ignored(what: string): void {
    this.log.note(
      '[service-comms] ignored device messages that are not answers',
      `[service-comms] ${this.device.serial}: ignored ${what} that is not an answer`,
    );
  }

  /** A message from the device after its hello: an answer, telemetry, or something to ignore (and say so). */
  receive(text: string, receivedAt = Date.now()): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (this.telemetry && isTelemetryMessage(parsed)) {
      this.telemetry.accept(this.device, parsed, receivedAt);
      return;
    }
    const answer = deviceSocketAnswerSchema.safeParse(parsed);
    if (!answer.success) {
      this.ignored('a message');
      return;
    }
    this.answers.settle(answer.data.id, { ok: true, data: answer.data.data });
  }

  /** The socket closed: every waiting command answers `device_offline`. */
  closedNow(): void {
    this.closed = true;
    this.answers.settleAll(offline);
    this.telemetry?.forget(this.device.id);
  }
}
