/**
 * What a rollup step holds for one device and metric, and how two partial steps merge. Count,
 * sum, least and greatest merge in any order; the newest value goes by its time (two readings of
 * one device never share a time: the second is a duplicate). So a step built from readings in any
 * arrival order, batch by batch, equals one built from all of them at once.
 */
export interface StepAggregate {
  n: number;
  total: number;
  min: number | null;
  max: number | null;
  last: number | null;
  lastAt: number | null;
  /** Energy counters only: how much the counter grew over the readings of the step. */
  increase: number | null;
}

/** A step with nothing in it yet (`counter`: it keeps an increase, starting at 0). */
export function emptyStep(counter: boolean): StepAggregate {
  return { n: 0, total: 0, min: null, max: null, last: null, lastAt: null, increase: counter ? 0 : null };
}

/** `step` with one more reading (`value` at `at`, epoch ms), in place. */
export function addToStep(step: StepAggregate, value: number, at: number): StepAggregate {
  step.n += 1;
  step.total += value;
  step.min = step.min === null ? value : Math.min(step.min, value);
  step.max = step.max === null ? value : Math.max(step.max, value);
  if (step.lastAt === null || at > step.lastAt) {
    step.last = value;
    step.lastAt = at;
  }
  return step;
}

/**
 * How much a counter grew from `previous` to `value`: the difference, or — when it went down,
 * since `Reset energy counters` restarted it from 0 — the new value itself. The first reading of
 * a counter (no previous) adds nothing.
 * @example counterGrowth(100, 102.5) // 2.5;  counterGrowth(100, 0.4) // 0.4 (reset)
 */
export function counterGrowth(previous: number | undefined, value: number): number {
  if (previous === undefined) return 0;
  return value >= previous ? value - previous : value;
}

/** One reading of a counter in a window read back from storage; `fresh`: stored by this batch. */
export interface CounterPoint {
  at: number;
  value: number;
  fresh: boolean;
}

/**
 * How the counter's increase changes, reading by reading, when a batch's fresh readings join the
 * stored ones. A reading's growth is counted at its own time, from the reading just before it; a
 * fresh reading can slip in between two stored ones, so the stored one after it now grows from the
 * fresh one. `window` holds, in time order, the stored reading just before the first fresh one (if
 * any), every reading from the first fresh to the last, and the stored one just after (if any):
 * the only readings whose growth can change. Each change says whether its reading is fresh: a
 * stored one's growth corrected is no reading of the batch.
 * @example increaseChanges([{at: 0, value: 10, fresh: false}, {at: 5, value: 12, fresh: true}]) // [{at: 5, delta: 2, fresh: true}]
 */
export function increaseChanges(
  window: readonly CounterPoint[],
): { at: number; delta: number; fresh: boolean }[] {
  const changes: { at: number; delta: number; fresh: boolean }[] = [];
  let previousAll: number | undefined;
  let previousStored: number | undefined;
  window.forEach((point, i) => {
    // The first point of the window: if stored, its own predecessor lies outside and is unchanged.
    if (i > 0 || point.fresh) {
      const now = counterGrowth(previousAll, point.value);
      const before = point.fresh ? 0 : counterGrowth(previousStored, point.value);
      if (now !== before) changes.push({ at: point.at, delta: now - before, fresh: point.fresh });
    }
    previousAll = point.value;
    if (!point.fresh) previousStored = point.value;
  });
  return changes;
}
