/** An image in a slot, as the device knows it after checking it. */
export interface SlotImage {
  version: string;
  /** The image's SHA-256 (its hash TLV): how SMP names an image. */
  hash: Uint8Array;
  modelId: string;
}

/** What a start did: nothing new, the tested image swapped in, or the old one put back. */
export type BootOutcome = 'unchanged' | 'swapped' | 'reverted';

/**
 * MCUboot's two slots: the primary runs; an upload goes to the secondary. An image marked for test
 * swaps in at the next start and runs unconfirmed; a start with an unconfirmed image swaps the old
 * one back (revert), so an image that does not come up, or that nobody confirmed, never stays.
 */
export class FirmwareSlots {
  primary: SlotImage;
  secondary: SlotImage | null = null;
  /** The running image is confirmed (it stays at the next start). */
  confirmed = true;
  /** The secondary runs at the next start: once (test) or for good (permanent). */
  pending: 'test' | 'permanent' | null = null;

  constructor(
    factory: SlotImage,
    /** Whether an image comes up and answers after a start; one that does not is reset by the watchdog. */
    private readonly comesUp: (image: SlotImage) => boolean = () => true,
  ) {
    this.primary = factory;
  }

  /** The secondary is erased for an upload; refused while it holds the only way back. */
  get secondaryWritable(): boolean {
    return this.confirmed && this.pending === null;
  }

  /** A start: swap a pending image in, or revert an unconfirmed one; a watchdog reset starts again. */
  boot(): BootOutcome {
    let outcome: BootOutcome = 'unchanged';
    if (!this.confirmed && this.secondary) {
      this.swap();
      this.confirmed = true;
      return 'reverted';
    }
    if (this.pending && this.secondary) {
      const permanent = this.pending === 'permanent';
      this.swap();
      this.pending = null;
      this.confirmed = permanent;
      outcome = 'swapped';
      // The new image hangs before it can be confirmed: the watchdog resets, MCUboot reverts.
      if (!this.comesUp(this.primary) && !permanent) return this.boot();
    }
    return outcome;
  }

  private swap(): void {
    const running = this.primary;
    this.primary = this.secondary as SlotImage;
    this.secondary = running;
  }
}
