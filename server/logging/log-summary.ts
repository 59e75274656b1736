/**
 * Log lines that a caller can repeat at their own pace (refused device hellos, junk on a device
 * socket, failed upgrades) are summarised per kind: the first line of a kind in a window is written
 * as it comes, the rest only counted, and when the window ends one line says how many more there
 * were. A flood therefore writes at most two lines per kind and window, however fast it comes.
 * Kinds are fixed texts chosen by the code, never text a caller sent (the number of kinds stays
 * small and a caller cannot write into the log).
 * @example
 * const log = new LogSummary(console.warn);
 * log.note('refused hello', `[service-comms] refused a device from ${address}: wrong secret`);
 */
export class LogSummary {
  readonly #counts = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (line: string) => void = console.warn,
    readonly windowMs = 60_000,
  ) {}

  /** Write `line` if it is the first of `kind` in this window, else count it. */
  note(kind: string, line: string): void {
    const count = this.#counts.get(kind);
    if (count !== undefined) {
      this.#counts.set(kind, count + 1);
      return;
    }
    this.#counts.set(kind, 0);
    this.write(line);
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.flush();
    }, this.windowMs).unref();
  }

  /** End the window now: one line per kind that repeated, with its count. */
  flush(): void {
    const seconds = Math.round(this.windowMs / 1000);
    for (const [kind, count] of this.#counts)
      if (count > 0) this.write(`${kind}: ${count} more in the last ${seconds} s (not logged one by one)`);
    this.#counts.clear();
  }

  /** Write what is counted and stop the timer (the process is stopping). */
  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.flush();
  }
}
