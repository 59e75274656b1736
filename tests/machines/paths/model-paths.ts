import { createTestModel, type TestPath } from 'xstate/graph';
import type { MachineModel } from './model-entry.ts';

// biome-ignore lint/suspicious/noExplicitAny: a path is generic over its model's snapshot and events
type AnyTestPath = TestPath<any, any>;

/** One step of a path in words: the event, and the state the real machine must then be in. */
export interface PathStep {
  event: string;
  /** The event in words. */
  does: string;
  state: string;
  /** The state in words. */
  expect: string;
}

/** One path of a model, as QA reads it and as the JSON of `npm run test:paths` holds it. */
export interface DescribedPath {
  model: string;
  kind: 'shortest' | 'simple';
  /** 1-based within its model and kind. */
  number: number;
  target: string;
  /** The model's initial state, checked before the first event. */
  start: { state: string; expect: string };
  steps: PathStep[];
  /** The same path as `createTestModel` gives it, to run. */
  path: AnyTestPath;
}

// biome-ignore lint/suspicious/noExplicitAny: a model's snapshot value is a string or a nested object
const stateKey = (value: any): string =>
  typeof value === 'string'
    ? value
    : Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${k}.${stateKey(v)}`)
        .join(', ');

/** Every shortest path (and, unless the entry says not, every simple path) of a model. */
export function describePaths(entry: MachineModel): DescribedPath[] {
  const model = createTestModel(entry.model);
  const initial = stateKey(entry.model.getInitialSnapshot({} as never).value);
  const describe =
    (kind: DescribedPath['kind']) =>
    (path: AnyTestPath, i: number): DescribedPath => ({
      model: entry.name,
      kind,
      number: i + 1,
      target: stateKey(path.state.value),
      start: { state: initial, expect: entry.states[initial] ?? '' },
      steps: path.steps
        .filter((step) => step.event.type !== 'xstate.init')
        .map((step) => {
          const state = stateKey(step.state.value);
          return {
            event: step.event.type,
            does: entry.events[step.event.type] ?? '',
            state,
            expect: entry.states[state] ?? '',
          };
        }),
      path,
    });
  return [
    ...model.getShortestPaths().map(describe('shortest')),
    ...(entry.simplePaths === false ? [] : model.getSimplePaths().map(describe('simple'))),
  ];
}

/** The result of running one path against the real machine. */
export interface PathRun {
  path: DescribedPath;
  error: unknown;
}

/** A path that waits this long for a state the real machine never reaches has failed. */
const PATH_TIMEOUT_MS = Number(process.env.PATH_TIMEOUT_MS ?? 30_000);

/** Runs every path of a model against its real machine, one fresh driver each; never throws. */
export async function runPaths(entry: MachineModel): Promise<PathRun[]> {
  const runs: PathRun[] = [];
  let notStarted: unknown = null;
  try {
    await entry.start?.();
  } catch (e) {
    notStarted = e;
  }
  for (const path of describePaths(entry)) {
    if (notStarted !== null) {
      runs.push({ path, error: notStarted });
      continue;
    }
    let error: unknown = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The timer also keeps Node running while a driver waits on a promise that nothing else holds.
    const stuck = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${PATH_TIMEOUT_MS / 1000} s: a state was never reached`)),
        PATH_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([path.path.test(entry.driver()), stuck]);
    } catch (e) {
      error = e;
    } finally {
      clearTimeout(timer);
    }
    runs.push({ path, error });
  }
  return runs;
}
