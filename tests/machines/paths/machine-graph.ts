import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/**
 * The states and transitions of a real machine, read from its own definition (its `root` state
 * node and each node's `transitions` and `always`): `on`, `after`, and the `onDone`/`onError` of
 * its invocations all live in `transitions`, keyed by the event they wait for.
 */

export interface GraphState {
  /** The node's id, e.g. `auth.config.refreshing.spending`. */
  id: string;
  /** The id without the machine's own, e.g. `config.refreshing.spending`. */
  label: string;
  /** Where it sits: one level deeper than its parent. */
  depth: number;
}

export interface GraphTransition {
  /** Stable across `machine.provide()`: source id, event and place among that event's alternatives. */
  key: string;
  /** For people: `source → target on event [guard]`. */
  label: string;
  source: string;
  targets: string[];
  /** The event in words: `auth.login`, `after searchDelay`, `configLogin answers`, `(at once)`. */
  event: string;
  guard: string | null;
}

export interface MachineGraph {
  id: string;
  states: GraphState[];
  transitions: GraphTransition[];
}

/** The event name that `always` transitions carry. */
const EVENTLESS = '';

/** The key of one transition: the same for the machine's definition and for a running actor. */
export function transitionKey(transition: AnyTransitionDefinition): string | null {
  const source = transition.source;
  const list =
    transition.eventType === EVENTLESS ? source.always : source.transitions.get(transition.eventType);
  const index = list?.indexOf(transition) ?? -1;
  if (index < 0) return null;
  return `${source.id}|${transition.eventType}|${index}`;
}

/** A guard in words, including `and`/`or`/`not` and `stateIn`. */
export function guardText(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const g = guard as { name: string; guards?: unknown[]; stateValue?: unknown };
    if (g.guards && (g.name === 'and' || g.name === 'or')) {
      return g.guards.map((inner) => guardText(inner)).join(` ${g.name} `);
    }
    if (g.guards && g.name === 'not') return `not ${guardText(g.guards[0])}`;
    if (g.name === 'stateIn') {
      const value = typeof g.stateValue === 'string' ? g.stateValue : JSON.stringify(g.stateValue);
      return `in ${value.replace(/^#/, '')}`;
    }
    return 'inline check';
  }
  if (guard && typeof guard === 'object' && 'type' in guard) return String((guard as { type: unknown }).type);
  return 'inline check';
}

function relative(node: AnyStateNode, rootId: string): string {
  if (node.id === rootId) return '(root)';
  return node.id.startsWith(`${rootId}.`) ? node.id.slice(rootId.length + 1) : node.id;
}

/** What the transition waits for, in words rather than XState's internal event names. */
function eventText(node: AnyStateNode, transition: AnyTransitionDefinition): string {
  const type = transition.eventType;
  if (type === EVENTLESS) return '(at once)';
  const delay = (transition as { delay?: number | string }).delay;
  if (type.startsWith('xstate.after.') && delay !== undefined) {
    return typeof delay === 'number' ? `after ${delay} ms` : `after ${delay}`;
  }
  for (const [prefix, verb] of [
    ['xstate.done.actor.', 'answers'],
    ['xstate.error.actor.', 'fails'],
  ] as const) {
    if (type.startsWith(prefix)) {
      const id = type.slice(prefix.length);
      const invoke = node.invoke.find((i) => i.id === id);
      const src = typeof invoke?.src === 'string' ? invoke.src : id;
      return `${src} ${verb}`;
    }
  }
  if (type.startsWith('xstate.done.state.')) return 'done';
  return type;
}

function nodesOf(root: AnyStateNode): AnyStateNode[] {
  const all: AnyStateNode[] = [];
  const visit = (node: AnyStateNode) => {
    all.push(node);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(root);
  return all;
}

/** Reads every state node (but the root) and every transition of a machine. */
export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const root = machine.root;
  const rootId = root.id;
  const nodes = nodesOf(root);
  const states = nodes
    .filter((n) => n !== root)
    .map((n) => ({ id: n.id, label: relative(n, rootId), depth: n.path.length }));
  const transitions: GraphTransition[] = [];
  for (const node of nodes) {
    const lists: AnyTransitionDefinition[][] = [...node.transitions.values()];
    if (node.always) lists.push(node.always);
    for (const list of lists) {
      list.forEach((transition) => {
        const key = transitionKey(transition);
        if (!key) throw new Error(`a transition of ${node.id} is not in its own list`);
        const guard = transition.guard ? guardText(transition.guard) : null;
        const targets = (transition.target ?? []).map((t) => relative(t, rootId));
        const event = eventText(node, transition);
        const to = targets.length ? targets.join(', ') : '(stays)';
        const condition = guard ? ` [${guard}]` : list.length > 1 ? ' [otherwise]' : '';
        transitions.push({
          key,
          label: `${relative(node, rootId)} → ${to} on ${event}${condition}`,
          source: node.id,
          targets: (transition.target ?? []).map((t) => t.id),
          event,
          guard,
        });
      });
    }
  }
  // Two alternatives that read the same (two inline checks) are told apart by their place.
  const seen = new Map<string, number>();
  for (const t of transitions) seen.set(t.label, (seen.get(t.label) ?? 0) + 1);
  const counters = new Map<string, number>();
  for (const t of transitions) {
    if ((seen.get(t.label) ?? 0) > 1) {
      const n = (counters.get(t.label) ?? 0) + 1;
      counters.set(t.label, n);
      t.label = `${t.label} #${n}`;
    }
  }
  return { id: rootId, states, transitions };
}
