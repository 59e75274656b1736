/** What one telemetry message's handling reports back to its socket. */
export interface TelemetryReceipt {
  /** The message is dealt with: stored (its batch committed), or refused for good and counted. */
  settle(): void;
  /** Send the socket's acknowledgement now if settling moved it (once per batch is enough). */
  flush(): void;
}

/**
 * The acknowledgements of one device socket. Messages are answered in the order they came: the
 * acknowledged `seq` is the highest of the messages that are dealt with, counting only those
 * with every message before them on this socket dealt with too. So an ack never covers a reading
 * still waiting for its batch, and a device may forget everything up to it.
 */
export class AckWindow {
  private readonly entries: Receipt[] = [];
  private head = 0;
  private acked = -1;

  constructor(private readonly send: (seq: number) => void) {}

  /** A message with this `seq` came; answers its receipt. */
  receive(seq: number): TelemetryReceipt {
    const entry = new Receipt(this, seq);
    this.entries.push(entry);
    return entry;
  }

  /** How many messages wait to be dealt with (tests, diagnostics). */
  get waiting(): number {
    return this.entries.length - this.head;
  }

  /** Acknowledge the settled messages at the front, if that moves the acknowledgement. */
  flush(): void {
    let highest = this.acked;
    while (this.head < this.entries.length && this.entries[this.head]?.settled) {
      highest = Math.max(highest, this.entries[this.head]?.seq ?? highest);
      this.head += 1;
    }
    // Drop what is done now and then, not on every message.
    if (this.head > 1024 || this.head === this.entries.length) {
      this.entries.splice(0, this.head);
      this.head = 0;
    }
    if (highest <= this.acked) return;
    this.acked = highest;
    this.send(highest);
  }
}

/**
 * One message's place in its window, and its receipt: one object with methods, where a pair of
 * closures per message cost more than the rest of its bookkeeping (every reading has one).
 */
class Receipt implements TelemetryReceipt {
  settled = false;

  constructor(
    private readonly window: AckWindow,
    readonly seq: number,
  ) {}

  settle(): void {
    this.settled = true;
  }

  flush(): void {
    this.window.flush();
  }
}
