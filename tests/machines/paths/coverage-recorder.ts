import type { AnyStateNode, AnyTransitionDefinition, InspectionEvent } from 'xstate';
import { transitionKey } from './machine-graph.ts';

/**
 * What the real machines did while the model's paths ran: every state node they were in and every
 * transition they took, per machine id. Harnesses pass {@link recordCoverage} as the `inspect`
 * option of the actors they create; it sees every microstep of the actor and of its children.
 */
interface Reached {
  states: Set<string>;
  transitions: Set<string>;
}

const reached = new Map<string, Reached>();

function of(machineId: string): Reached {
  let r = reached.get(machineId);
  if (!r) {
    r = { states: new Set(), transitions: new Set() };
    reached.set(machineId, r);
  }
  return r;
}

function noteNodes(snapshot: unknown) {
  const nodes = (snapshot as { _nodes?: AnyStateNode[] })._nodes;
  if (!Array.isArray(nodes)) return;
  for (const node of nodes) of(node.machine.id).states.add(node.id);
}

/** The `inspect` option for actors whose coverage counts. */
export function recordCoverage(event: InspectionEvent): void {
  if (event.type === '@xstate.snapshot') noteNodes(event.snapshot);
  if (event.type !== '@xstate.microstep') return;
  noteNodes(event.snapshot);
  for (const transition of event._transitions as AnyTransitionDefinition[]) {
    const source = transition.source;
    const machine = of(source.machine.id);
    // A state left within the same step (an eventless hop) was still entered.
    machine.states.add(source.id);
    const key = transitionKey(transition);
    if (key) machine.transitions.add(key);
  }
}

/** What was reached in machine `machineId` so far. */
export function reachedIn(machineId: string): {
  states: ReadonlySet<string>;
  transitions: ReadonlySet<string>;
} {
  return of(machineId);
}

export function resetCoverage(): void {
  reached.clear();
}
