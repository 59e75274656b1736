import { parseArgs } from 'node:util';
import { coverageOf, coverageReport } from './coverage.ts';
import { writeHtml } from './html-pages.ts';
import type { MachineModel } from './model-entry.ts';
import { type DescribedPath, describePaths, runPaths } from './model-paths.ts';
import { loadModels } from './registry.ts';

/**
 * The command behind `npm run test:paths` (run by `print-paths.ts` through Vite): every shortest and simple path of the abstract models that
 * `model-paths.test.ts` runs against the real machines — first readable, then as JSON for QA.
 *
 *   --coverage       run the paths against the real machines here and print, per machine, the
 *                    states and transitions reached and every one not reached, with why
 *   --html <folder>  write one page per machine (state diagram, numbered paths, coverage), an
 *                    index page and paths.json
 *   --model <name>   only this machine's model (repeatable), e.g. --model auth
 */
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    coverage: { type: 'boolean', default: false },
    html: { type: 'string' },
    model: { type: 'string', multiple: true },
  },
});

/** The printed and JSON form of a path: what the real machine must do, in order. */
export const pathJson = (p: DescribedPath) => ({
  model: p.model,
  kind: p.kind,
  number: p.number,
  target: p.target,
  start: p.start,
  events: p.steps.map((s) => s.event),
  steps: p.steps.map(({ event, does, state, expect }) => ({ event, does, state, expect })),
});

async function runAll(models: MachineModel[]) {
  let failed = 0;
  for (const entry of models) {
    for (const run of await runPaths(entry)) {
      if (run.error === null) continue;
      failed += 1;
      const message = run.error instanceof Error ? run.error.message : String(run.error);
      console.error(`FAILED ${entry.name} ${run.path.kind} ${run.path.number}: ${message}`);
    }
  }
  return failed;
}

const only = values.model ?? [];
const models = (await loadModels()).filter((m) => only.length === 0 || only.includes(m.name));
if (models.length === 0) throw new Error(`No model is named ${only.join(' or ')}`);
const paths = models.map((entry) => ({ entry, paths: describePaths(entry) }));

if (values.coverage || values.html) {
  const failed = await runAll(models);
  const coverages = models.map(coverageOf);
  if (values.coverage) console.log(coverageReport(coverages));
  if (values.html) {
    const written = await writeHtml(values.html, paths, coverages, pathJson);
    console.log(`\nWrote ${written.length} pages to ${values.html}: ${written.join(', ')}`);
  }
  if (failed > 0) console.error(`\n${failed} paths failed against the real machines`);
  for (const entry of models) await entry.close?.();
  // The drivers leave the simulated devices' and tabs' timers behind: end here, with the verdict.
  process.exit(failed > 0 || coverages.some((c) => !c.meetsTargets) ? 1 : 0);
} else {
  for (const { entry, paths: all } of paths) {
    for (const kind of ['shortest', 'simple'] as const) {
      const group = all.filter((p) => p.kind === kind);
      if (!group.length) continue;
      console.log(`\n${entry.name} — ${kind} paths (${group.length})`);
      for (const p of group) {
        const steps = p.steps.length ? p.steps.map((s) => s.event).join(' → ') : '(start)';
        console.log(`  ${String(p.number).padStart(3)}. ${p.target.padEnd(20)} ${steps}`);
      }
    }
  }
  console.log('\nJSON');
  console.log(
    JSON.stringify(
      paths.flatMap((m) => m.paths.map(pathJson)),
      null,
      2,
    ),
  );
}
