import { reachedIn } from './coverage-recorder.ts';
import { machineGraph } from './machine-graph.ts';
import type { MachineModel } from './model-entry.ts';

/** Every machine's paths must reach all of its states and this share of its transitions. */
export const TARGETS = { states: 1, transitions: 0.95 } as const;

export interface MissedTransition {
  label: string;
  /** Why no path takes it, from the model's `unreachable` list; null when nobody said. */
  reason: string | null;
}

export interface Coverage {
  name: string;
  machineId: string;
  states: { total: number; reached: number; missed: string[] };
  transitions: { total: number; reached: number; missed: MissedTransition[] };
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
  const missedStates = graph.states.filter((s) => !seen.states.has(s.id)).map((s) => s.label);
  const unreachable = entry.unreachable ?? {};
  const missed = graph.transitions
    .filter((t) => !seen.transitions.has(t.key))
    .map((t) => ({ label: t.label, reason: unreachable[t.label] ?? null }));
  const missedLabels = new Set(missed.map((m) => m.label));
  const stale = Object.keys(unreachable).filter((label) => !missedLabels.has(label));
  const states = {
    total: graph.states.length,
    reached: graph.states.length - missedStates.length,
    missed: missedStates,
  };
  const transitions = {
    total: graph.transitions.length,
    reached: graph.transitions.length - missed.length,
    missed,
  };
  const share = (part: number, total: number) => (total === 0 ? 1 : part / total);
  return {
    name: entry.name,
    machineId: graph.id,
    states,
    transitions,
    stale,
    meetsTargets:
      share(states.reached, states.total) >= TARGETS.states &&
      share(transitions.reached, transitions.total) >= TARGETS.transitions,
  };
}

const percent = (part: number, total: number) =>
  `${total === 0 ? 100 : Math.floor((1000 * part) / total) / 10} %`;

export const statesFigure = (c: Coverage) =>
  `${c.states.reached}/${c.states.total} (${percent(c.states.reached, c.states.total)})`;
export const transitionsFigure = (c: Coverage) =>
  `${c.transitions.reached}/${c.transitions.total} (${percent(c.transitions.reached, c.transitions.total)})`;

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
    `Coverage of the real machines by the model paths (targets: ${TARGETS.states * 100} % of states, ${TARGETS.transitions * 100} % of transitions)`,
    '',
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
  ];
  for (const c of coverages) {
    if (!c.states.missed.length && !c.transitions.missed.length && !c.stale.length) continue;
    out.push('', `${c.name} (${c.machineId}), not reached:`);
    for (const s of c.states.missed) out.push(`  state ${s}`);
    for (const t of c.transitions.missed)
      out.push(`  ${t.label}\n      why: ${t.reason ?? 'NO REASON GIVEN'}`);
    for (const s of c.stale) out.push(`  listed as unreachable but reached or unknown: ${s}`);
  }
  return out.join('\n');
}
