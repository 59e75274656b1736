import type { AnyStateMachine, AnyStateNode } from 'xstate';
import type { TestParam } from 'xstate/graph';

// biome-ignore lint/suspicious/noExplicitAny: TestParam is generic over the model's snapshot and events
export type ModelDriver = TestParam<any, any>;

/**
 * One machine's model-based tests: the real machine, the abstract model whose paths are run
 * against it, the driver that performs each event and checks each state on the real machine, and
 * the words QA reads. A file in `tests/machines/models/` whose default export is one of these is
 * all it takes for a machine to be run by `model-paths.test.ts`, printed by `npm run test:paths`,
 * measured by its `--coverage` and drawn by its `--html`.
 */
export interface MachineModel {
  /** File-safe name, e.g. `remote-debugger`: the page `remote-debugger.html`. */
  name: string;
  /** What QA calls it, e.g. `Remote Debugger console`. */
  title: string;
  /** Where the real machine's source is, from the repository's root. */
  source: string;
  /** One or two sentences: what the model walks and what it leaves to other tests. */
  about: string;
  /** The real machine, whose definition the coverage is measured against. */
  machine: AnyStateMachine;
  /** The abstract model: no actors, no delays, one event per thing a person or the world does. */
  model: AnyStateMachine;
  /** A fresh driver (so a fresh real machine) for each path. */
  driver: () => ModelDriver;
  /** Every event of the model, in words: "another tab is refreshing the session". */
  events: Record<string, string>;
  /** Every state of the model, in words: what a person sees there. */
  states: Record<string, string>;
  /**
   * States and transitions of the real machine that no path can reach, by their label in the
   * coverage report (`config.refreshing` or `source → target on event [guard]`), with the reason.
   * They are printed with it and left out of the targets.
   */
  unreachable?: Record<string, string>;
  /** Whether the simple paths run as well as the shortest (default true). */
  simplePaths?: boolean;
  /**
   * Starts what the drivers share across paths (a service in process), before the first path; the
   * drivers would otherwise start it on first use.
   */
  start?: () => Promise<void>;
  /** Ends what `start` (or a driver) started, once the last path has run. */
  close?: () => Promise<void>;
}

/** Every event type and every state key of an abstract model. */
export function modelVocabulary(model: AnyStateMachine): { events: string[]; states: string[] } {
  const events = new Set<string>();
  const states: string[] = [];
  const visit = (node: AnyStateNode) => {
    if (node !== model.root) states.push(node.path.join('.'));
    for (const type of node.transitions.keys()) events.add(type);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(model.root);
  return { events: [...events], states };
}

/** Checks that every event and state of the model is described, and nothing else is. */
export function defineModel(entry: MachineModel): MachineModel {
  const { events, states } = modelVocabulary(entry.model);
  const problems = [
    ...events.filter((e) => !entry.events[e]).map((e) => `event ${e} has no description`),
    ...states.filter((s) => !entry.states[s]).map((s) => `state ${s} has no description`),
    ...Object.keys(entry.events)
      .filter((e) => !events.includes(e))
      .map((e) => `${e} is described but is no event of the model`),
    ...Object.keys(entry.states)
      .filter((s) => !states.includes(s))
      .map((s) => `${s} is described but is no state of the model`),
  ];
  if (problems.length) throw new Error(`The ${entry.name} model: ${problems.join('; ')}`);
  return entry;
}
