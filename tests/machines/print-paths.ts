import type { AnyStateMachine } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { authModel } from './auth-model.ts';
import { bleConnectionModel, blePasswordModel, bleWriteModel } from './ble-models.ts';
import { catalogueModel } from './catalogue-model.ts';
import { configureSessionModel } from './configure-session-model.ts';

/**
 * `npm run test:paths`: prints every shortest and simple path of the abstract models that
 * `model-paths.test.ts` runs against the real machines — first readable, then as JSON for QA.
 */
interface PrintedPath {
  model: string;
  kind: 'shortest' | 'simple';
  target: string;
  events: string[];
}

const models: Array<[string, AnyStateMachine]> = [
  ['auth', authModel],
  ['catalogue', catalogueModel],
  ['ble-connection', bleConnectionModel],
  ['ble-password', blePasswordModel],
  ['ble-write', bleWriteModel],
  ['configure-session', configureSessionModel],
];

function pathsOf(name: string, machine: AnyStateMachine): PrintedPath[] {
  const model = createTestModel(machine);
  const describe =
    (kind: PrintedPath['kind']) => (path: ReturnType<typeof model.getShortestPaths>[number]) => ({
      model: name,
      kind,
      target: JSON.stringify(path.state.value).replaceAll('"', ''),
      events: path.steps.map((step) => step.event.type).filter((type) => type !== 'xstate.init'),
    });
  return [
    ...model.getShortestPaths().map(describe('shortest')),
    ...model.getSimplePaths().map(describe('simple')),
  ];
}

const all = models.flatMap(([name, machine]) => pathsOf(name, machine));

for (const [name] of models) {
  for (const kind of ['shortest', 'simple'] as const) {
    const group = all.filter((p) => p.model === name && p.kind === kind);
    console.log(`\n${name} — ${kind} paths (${group.length})`);
    group.forEach((p, i) => {
      const steps = p.events.length ? p.events.join(' → ') : '(start)';
      console.log(`  ${String(i + 1).padStart(3)}. ${p.target.padEnd(20)} ${steps}`);
    });
  }
}

console.log('\nJSON');
console.log(JSON.stringify(all, null, 2));
