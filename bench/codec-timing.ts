/** Timing helpers for the codec benchmark: figures are printed, never asserted. */

export interface Figure {
  name: string;
  value: number;
  unit: string;
  label: string;
}

/** Nanoseconds per call of `fn`: calibrated to ~50 ms a round, median of `rounds` rounds after a warm-up. */
export function nsPerCall(fn: () => void, rounds = 9): number {
  let iterations = 1;
  for (;;) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    const elapsed = Number(process.hrtime.bigint() - start);
    if (elapsed > 50e6) break;
    iterations *= elapsed < 5e6 ? 10 : 2;
  }
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    samples.push(Number(process.hrtime.bigint() - start) / iterations);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
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
