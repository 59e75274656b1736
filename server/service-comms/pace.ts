/**
 * A device's pace: at most `perSecond` messages a second, with a burst of as many allowed (a
 * token bucket, refilled continuously by the time the messages arrive).
 * @example const pace = new Pace(20, Date.now()); if (!pace.take(Date.now())) refuse('flood');
 */
export class Pace {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = perSecond;
    this.at = now;
  }

  /** Take one message at `now` (epoch ms): false when the device is over its pace. */
  take(now: number): boolean {
    this.tokens = Math.min(
      this.perSecond,
      this.tokens + (Math.max(0, now - this.at) / 1000) * this.perSecond,
    );
    this.at = Math.max(this.at, now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
