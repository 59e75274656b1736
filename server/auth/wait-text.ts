/**
 * How long from `now` (the server's clock) until a fixed window ends, in whole seconds (at least 1).
 * @example secondsLeft(new Date(0), 900, 60_000) // 840
 */
export function secondsLeft(windowStart: Date, windowSeconds: number, now: number): number {
  return Math.max(1, Math.ceil((windowStart.getTime() + windowSeconds * 1000 - now) / 1000));
}

/**
 * A wait said as people say it, rounded up to whole minutes.
 * @example waitText(30) // 'in 1 minute'
 * @example waitText(601) // 'in 11 minutes'
 */
export function waitText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? 'in 1 minute' : `in ${minutes} minutes`;
}
