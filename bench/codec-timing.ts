/** Timing helpers for the codec benchmark: figures are printed, never asserted. */

export interface Figure {
  name: string;
  value: number;
  unit: string;
  label: string;
}

/** Iterations of `fn` that take about 20 ms, after a warm-up. */
function calibrate(fn: () => void): number {
  let iterations = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    const elapsed = Number(process.hrtime.bigint() - start);
    if (elapsed > 20e6) return iterations;
    iterations *= elapsed < 2e6 ? 10 : 2;
  }
}

/**
 * Nanoseconds per call of each function. Rounds of the functions are interleaved, so that load from
 * other processes falls on all of them alike, and the best round of each is kept: on a shared
 * machine the fastest round is the closest to what the code itself costs.
 */
export function nsPerCall(fns: readonly (() => void)[], rounds = 15): number[] {
  const iterations = fns.map(calibrate);
  const best = fns.map(() => Number.POSITIVE_INFINITY);
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, k) => {
      const n = iterations[k] as number;
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) fn();
      best[k] = Math.min(best[k] as number, Number(process.hrtime.bigint() - start) / n);
    });
  }
  return best;
}

/** Megabytes (10^6 bytes) per second for `bytes` processed in `ns` nanoseconds. */
export const megabytesPerSecond = (bytes: number, ns: number): number => bytes / 1e6 / (ns / 1e9);

const round = (value: number): number => Number(value.toPrecision(4));

/** A readable table, then one JSON object per line, last. */
export function report(figures: readonly Figure[]): void {
  const width = Math.max(...figures.map((f) => f.label.length));
  console.log(`${'measure'.padEnd(width)}  ${'value'.padStart(12)}  unit`);
  console.log(`${'-'.repeat(width)}  ${'-'.repeat(12)}  ----`);
  for (const f of figures)
    console.log(`${f.label.padEnd(width)}  ${String(round(f.value)).padStart(12)}  ${f.unit}`);
  console.log('');
  for (const f of figures) console.log(JSON.stringify({ name: f.name, value: round(f.value), unit: f.unit }));
}
