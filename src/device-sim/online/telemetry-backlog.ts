/** A reading a device took and keeps until the service acknowledges it. */
export interface KeptReading {
  /** The device's number for it, increasing, kept when it is sent again. */
  seq: number;
  frame: Uint8Array;
  /** When the device took it (epoch ms). */
  takenAt: number;
}

/**
 * What a device keeps of its telemetry: every reading it took that the service has not
 * acknowledged, oldest first, at most `capacity` (the oldest go first, counted in `dropped`).
 * Readings are sent in order; after a reconnect everything kept is sent again from the oldest.
 * @example
 * const backlog = new TelemetryBacklog(8640);
 * backlog.take(frame, Date.now());
 * for (let r = backlog.next(); r; r = backlog.next()) send(r);
 * backlog.acknowledge(ack.seq);
 */
export class TelemetryBacklog {
  private kept: KeptReading[] = [];
  /** Index in `kept` of the next reading to send on this connection. */
  private cursor = 0;
  private nextSeq: number;
  /** Readings dropped, oldest first, because the backlog was full. */
  dropped = 0;

  constructor(
    private capacity: number,
    firstSeq = 0,
  ) {
    this.nextSeq = firstSeq;
  }

  /** Keep a new reading; answers it with its `seq`. */
  take(frame: Uint8Array, takenAt: number): KeptReading {
    const reading = { seq: this.nextSeq, frame, takenAt };
    this.nextSeq = (this.nextSeq + 1) % 2 ** 32;
    this.kept.push(reading);
    this.trim();
    return reading;
  }

  /** Keep at most `capacity` readings from now on (the interval changed). */
  resize(capacity: number): void {
    this.capacity = Math.max(1, capacity);
    this.trim();
  }

  private trim(): void {
    const over = this.kept.length - this.capacity;
    if (over <= 0) return;
    this.kept.splice(0, over);
    this.cursor = Math.max(0, this.cursor - over);
    this.dropped += over;
  }

  /** The next reading to send on this connection, oldest first; undefined when all were sent. */
  next(): KeptReading | undefined {
    const reading = this.kept[this.cursor];
    if (reading) this.cursor += 1;
    return reading;
  }

  /** Whether a reading waits to be sent on this connection. */
  get pending(): boolean {
    return this.cursor < this.kept.length;
  }

  /** The service stored everything up to `seq`: forget those, and answer them. */
  acknowledge(seq: number): KeptReading[] {
    let n = 0;
    while (n < this.kept.length && (this.kept[n]?.seq ?? Number.POSITIVE_INFINITY) <= seq) n += 1;
    const done = this.kept.splice(0, n);
    this.cursor = Math.max(0, this.cursor - n);
    return done;
  }

  /** A new connection: everything kept is sent again, oldest first. */
  rewind(): void {
    this.cursor = 0;
  }

  /** How many readings are kept (not yet acknowledged). */
  get size(): number {
    return this.kept.length;
  }
}
