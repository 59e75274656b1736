import type { ProcessStep } from './process-step-schema.ts';
import { textOfCodes } from './text-codes.ts';
import { dateTimeToTime, minutesToText, minutesToTime, NOT_AVAILABLE, secondsToTime } from './time-format.ts';

/** A decoded or derived value. */
export type ConfigValue = number | string;

/** `vfa` result for an index outside its list. */
export const NOT_IN_PROGRAM = 'nip';
/** `cal` result for a division (or modulo) by zero. */
export const DIVISION_BY_ZERO = 'div/0';

type Lookup = (ref: string) => ConfigValue | undefined;

function num(value: ConfigValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function assemble(step: Extract<ProcessStep, { type: 'ass' }>, get: Lookup): string {
  return step.parts
    .map((part) => {
      if ('text' in part) return part.text;
      const value = get(part.ref);
      if (value === undefined) return NOT_AVAILABLE;
      if (typeof value === 'string' || part.pad === undefined) return String(value);
      const digits = String(Math.abs(value)).padStart(part.pad, '0');
      return value < 0 ? `-${digits}` : digits;
    })
    .join('');
}

function compare(step: Extract<ProcessStep, { type: 'com' }>, get: Lookup): ConfigValue {
  const left = get(step.ref);
  const right = typeof step.to === 'object' ? get(step.to.ref) : step.to;
  if (left === undefined || right === undefined) return NOT_AVAILABLE;
  let result: boolean;
  if (step.op === 'eq' || step.op === 'ne') result = (left === right) === (step.op === 'eq');
  else {
    const a = num(left);
    const b = num(right);
    if (a === undefined || b === undefined) return NOT_AVAILABLE;
    result = { lt: a < b, le: a <= b, gt: a > b, ge: a >= b }[step.op];
  }
  if (step.outcomes) return result ? step.outcomes[0] : step.outcomes[1];
  return result ? 1 : 0;
}

type CalStep = Extract<ProcessStep, { type: 'cal' }>;

/** One side of a calculation: a number written in the step, or the value of an item. */
function operand(o: CalStep['left'], get: Lookup): number | undefined {
  return 'num' in o ? o.num : num(get(o.ref));
}

/** `a op b`. A switch, not a table of all five results: this runs for every reading's derived items. */
function arithmetic(op: CalStep['op'], a: number, b: number): number {
  switch (op) {
    case 'add':
      return a + b;
    case 'sub':
      return a - b;
    case 'mul':
      return a * b;
    case 'div':
      return a / b;
    case 'mod':
      return a % b;
  }
}

function calculate(step: CalStep, get: Lookup): ConfigValue {
  const a = operand(step.left, get);
  const b = operand(step.right, get);
  if (a === undefined || b === undefined) return NOT_AVAILABLE;
  if ((step.op === 'div' || step.op === 'mod') && b === 0) return DIVISION_BY_ZERO;
  const result = arithmetic(step.op, a, b);
  if (!Number.isFinite(result)) return NOT_AVAILABLE;
  return step.round === undefined ? result : Number(result.toFixed(step.round));
}

function bit(step: Extract<ProcessStep, { type: 'bsv' }>, get: Lookup): ConfigValue {
  const value = num(get(step.ref));
  if (value === undefined || !Number.isInteger(value) || value < -(2 ** 31) || value >= 2 ** 32)
    return NOT_AVAILABLE;
  const set = ((value >>> step.bit) & 1) === 1;
  if (step.outcomes) return set ? step.outcomes[0] : step.outcomes[1];
  return set ? 1 : 0;
}

function listEntry(step: Extract<ProcessStep, { type: 'vfa' }>, get: Lookup): string {
  if (!step.list || step.list.length === 0) return NOT_AVAILABLE;
  const index = num(get(step.ref));
  if (index === undefined || !Number.isInteger(index)) return NOT_IN_PROGRAM;
  return step.list[index] ?? NOT_IN_PROGRAM;
}

function codesToString(refs: readonly string[], get: Lookup): string {
  const codes: number[] = [];
  for (const ref of refs) {
    const code = num(get(ref));
    // Negative codes and nulls are padding or garbage, never characters.
    if (code !== undefined && Number.isInteger(code) && code > 0 && code <= 0x10ffff) codes.push(code);
  }
  return textOfCodes(codes);
}

function timeStep(value: ConfigValue | undefined, convert: (n: number) => string): string {
  const n = num(value);
  return n === undefined ? NOT_AVAILABLE : convert(n);
}

/** Runs one step; `get` resolves names (and `$`, the previous step's result). */
function runStep(step: ProcessStep, get: Lookup): ConfigValue {
  switch (step.type) {
    case 'ass':
      return assemble(step, get);
    case 'com':
      return compare(step, get);
    case 'cal':
      return calculate(step, get);
    case 'tfm':
      return timeStep(get(step.ref), secondsToTime);
    case 'cdt': {
      const text = get(step.ref);
      return typeof text === 'string' ? dateTimeToTime(text) : NOT_AVAILABLE;
    }
    case 'itd':
      return timeStep(get(step.ref), minutesToTime);
    case 'its':
      return timeStep(get(step.ref), minutesToText);
    case 'bsv':
      return bit(step, get);
    case 'vfa':
      return listEntry(step, get);
    case 'cts':
      return codesToString(step.refs, get);
  }
}

/**
 * Runs an item's steps in order over `values`; each step sees the previous step's result as `$`.
 * @example runSteps([{ type: 'tfm', ref: 'start' }], { start: 46800 }) // '1:00 pm'
 */
export function runSteps(
  steps: readonly ProcessStep[],
  values: Readonly<Record<string, ConfigValue>>,
): ConfigValue {
  let previous: ConfigValue | undefined;
  for (const step of steps) {
    previous = runStep(step, (ref) => (ref === '$' ? previous : values[ref]));
  }
  return previous ?? NOT_AVAILABLE;
}
