import { reachedIn } from './coverage-recorder.ts';
import { machineGraph } from './machine-graph.ts';
import type { MachineModel } from './model-entry.ts';

/** Every machine's paths must reach all of its states and this share of its transitions. */
export const TARGETS = { states: 1, transitions: 0.95 } as const;

export interface Missed {
  label: string;
  /** Why no path takes it, from the model's `unreachable` list; null when nobody said. */
  reason: string | null;
}

export interface Coverage {
  name: string;
  machineId: string;
  /** `unreachable`: how many of the missed have a reason, and so are left out of the target. */
  states: { total: number; reached: number; unreachable: number; missed: Missed[] };
  transitions: { total: number; reached: number; unreachable: number; missed: Missed[] };
  /** `unreachable` entries that name no transition of the machine, or one the paths do take. */
  stale: string[];
  meetsTargets: boolean;
}

/**
 * What the model's paths reached of the real machine, from what the recorder saw while they ran
 * (so run the paths first), against the machine's own definition.
 */
export function coverageOf(entry: MachineModel): Coverage {
  const graph = machineGraph(entry.machine);
  const seen = reachedIn(graph.id);
  const unreachable = entry.unreachable ?? {};
  const withReason = (label: string) => ({ label, reason: unreachable[label] ?? null });
  const missedStates = graph.states.filter((s) => !seen.states.has(s.id)).map((s) => withReason(s.label));
  const missed = graph.transitions
    .filter((t) => !seen.transitions.has(t.key))
    .map((t) => withReason(t.label));
  const missedLabels = new Set([...missedStates, ...missed].map((m) => m.label));
  const stale = Object.keys(unreachable).filter((label) => !missedLabels.has(label));
  const tally = (total: number, misses: Missed[]) => ({
    total,
    reached: total - misses.length,
    unreachable: misses.filter((m) => m.reason !== null).length,
    missed: misses,
  });
  const states = tally(graph.states.length, missedStates);
  const transitions = tally(graph.transitions.length, missed);
  return {
    name: entry.name,
    machineId: graph.id,
    states,
    transitions,
    stale,
    meetsTargets:
      reachableShare(states) >= TARGETS.states &&
      reachableShare(transitions) >= TARGETS.transitions &&
      [...missedStates, ...missed].every((m) => m.reason !== null) &&
      stale.length === 0,
  };
}

/**
 * The share the targets are held to: of what can be reached at all. A state or transition named
 * unreachable with its reason (dead by the machine's construction, or out of any person's reach)
 * is left out; every other miss counts against the machine.
 */
export function reachableShare(part: Coverage['states']): number {
  const reachable = part.total - part.unreachable;
  return reachable === 0 ? 1 : part.reached / reachable;
}

const percent = (share: number) => `${Math.floor(1000 * share) / 10} %`;

/** `reached/total (share of the reachable)`, and how many are named unreachable. */
const figure = (part: Coverage['states']) =>
  `${part.reached}/${part.total} (${percent(reachableShare(part))})${part.unreachable ? `, ${part.unreachable} unreachable` : ''}`;
export const statesFigure = (c: Coverage) => figure(c.states);
export const transitionsFigure = (c: Coverage) => figure(c.transitions);

/** The coverage table and every state and transition not reached, with its reason. */
export function coverageReport(coverages: Coverage[]): string {
  const rows = coverages.map((c) => [
    c.name,
    statesFigure(c),
    transitionsFigure(c),
    c.meetsTargets ? 'yes' : 'NO',
  ]);
  const head = ['machine', 'states', 'transitions', 'meets targets'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const out = [
    `Coverage of the real machines by the model paths (targets: ${TARGETS.states * 100} % of states, ${TARGETS.transitions * 100} % of transitions;`,
    'the share is of what can be reached: those named unreachable, with their reason below, are left out)',
    '',
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
  ];
  for (const c of coverages) {
    if (!c.states.missed.length && !c.transitions.missed.length && !c.stale.length) continue;
    out.push('', `${c.name} (${c.machineId}), not reached:`);
    for (const s of c.states.missed)
      out.push(`  state ${s.label}\n      why: ${s.reason ?? 'NO REASON GIVEN'}`);
    for (const t of c.transitions.missed)
      out.push(`  ${t.label}\n      why: ${t.reason ?? 'NO REASON GIVEN'}`);
    for (const s of c.stale) out.push(`  listed as unreachable but reached or unknown: ${s}`);
  }
  return out.join('\n');
}
