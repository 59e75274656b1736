import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { reachedIn } from './coverage-recorder.ts';
import { machineGraph } from './machine-graph.ts';
import { modelVocabulary } from './model-entry.ts';

/** Graphviz sources of the two diagrams of a machine's page. */

const quote = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** The abstract model: its states, and an arrow per event, named by the event. */
export function modelDot(model: AnyStateMachine): string {
  const lines = [
    'digraph model {',
    '  rankdir=LR; bgcolor="transparent";',
    '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", color="#4a6fa5", fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=9, color="#555555"];',
    '  start [shape=circle, width=0.15, label="", style=filled, fillcolor="#333333"];',
  ];
  const { states } = modelVocabulary(model);
  for (const s of states) lines.push(`  ${quote(s)};`);
  lines.push(`  start -> ${quote(String(model.root.initial?.target[0]?.key ?? ''))};`);
  const visit = (node: AnyStateNode) => {
    for (const [event, list] of node.transitions) {
      for (const t of list) {
        for (const target of t.target ?? []) {
          lines.push(
            `  ${quote(node.path.join('.'))} -> ${quote(target.path.join('.'))} [label=${quote(event)}];`,
          );
        }
      }
    }
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(model.root);
  lines.push('}');
  return lines.join('\n');
}

/**
 * The real machine: compound states as boxes around their children, each transition an arrow,
 * grey where the paths took it and red and dashed where they did not (likewise the states).
 */
export function machineDot(machine: AnyStateMachine): string {
  const graph = machineGraph(machine);
  const seen = reachedIn(graph.id);
  const lines = [
    'digraph machine {',
    '  rankdir=LR; compound=true; bgcolor="transparent"; newrank=true;',
    '  node [shape=box, style="rounded,filled", fillcolor="#eef7ee", color="#3d7a3d", fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=8, color="#777777", fontcolor="#444444"];',
  ];
  const missedNode = 'fillcolor="#fde8e8", color="#b3261e", style="rounded,filled,dashed"';
  const anchor = (node: AnyStateNode) => `${node.id}::anchor`;
  /** Where an arrow from or to this node attaches, and the cluster to clip it at. */
  const end = (node: AnyStateNode) =>
    Object.keys(node.states).length
      ? { id: anchor(node), cluster: `cluster_${node.id}` }
      : { id: node.id, cluster: null };
  const label = (node: AnyStateNode) =>
    node.parent?.type === 'parallel' ? `${node.key} (in parallel)` : node.key;
  const draw = (node: AnyStateNode, indent: string) => {
    const children = Object.values(node.states) as AnyStateNode[];
    const reached = seen.states.has(node.id);
    if (!children.length) {
      lines.push(`${indent}${quote(node.id)} [label=${quote(node.key)}${reached ? '' : `, ${missedNode}`}];`);
      return;
    }
    lines.push(`${indent}subgraph ${quote(`cluster_${node.id}`)} {`);
    lines.push(
      `${indent}  label=${quote(label(node))}; fontname="Helvetica"; fontsize=11; style="rounded${reached ? '' : ',dashed'}"; color=${reached ? '"#9aa9b8"' : '"#b3261e"'};`,
    );
    lines.push(`${indent}  ${quote(anchor(node))} [shape=point, style=invis, width=0.01];`);
    for (const child of children) draw(child, `${indent}  `);
    lines.push(`${indent}}`);
  };
  for (const child of Object.values(machine.root.states) as AnyStateNode[]) draw(child, '  ');
  const byId = new Map<string, AnyStateNode>();
  const index = (node: AnyStateNode) => {
    byId.set(node.id, node);
    for (const child of Object.values(node.states) as AnyStateNode[]) index(child);
  };
  index(machine.root);
  const anywhere = 'any state';
  if (graph.transitions.some((t) => t.source === machine.root.id)) {
    lines.push(`  ${quote(anywhere)} [shape=plaintext, style="", label="(any state)"];`);
  }
  for (const t of graph.transitions) {
    const taken = seen.transitions.has(t.key);
    const source = byId.get(t.source);
    if (!source) continue;
    const from = source === machine.root ? { id: anywhere, cluster: null } : end(source);
    const text = `${t.event}${t.guard ? ` [${t.guard}]` : ''}`;
    const style = taken ? '' : ', color="#b3261e", fontcolor="#b3261e", style=dashed';
    const targets = t.targets.length ? t.targets : [t.source === machine.root.id ? anywhere : t.source];
    for (const targetId of targets) {
      const targetNode = byId.get(targetId);
      const to = targetId === anywhere || !targetNode ? { id: anywhere, cluster: null } : end(targetNode);
      const inside = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}.`);
      const clip = [
        from.cluster && !inside(targetId, t.source) ? `ltail=${quote(from.cluster)}` : '',
        to.cluster && !inside(t.source, targetId) ? `lhead=${quote(to.cluster)}` : '',
      ].filter(Boolean);
      lines.push(
        `  ${quote(from.id)} -> ${quote(to.id)} [label=${quote(text)}${clip.length ? `, ${clip.join(', ')}` : ''}${style}];`,
      );
    }
  }
  lines.push('}');
  return lines.join('\n');
}
