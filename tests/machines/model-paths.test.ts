import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverageOf, coverageReport, reachableShare, TARGETS } from './paths/coverage.ts';
import { writeHtml } from './paths/html-pages.ts';
import { describePaths } from './paths/model-paths.ts';
import { loadModels } from './paths/registry.ts';

// Every shortest and every simple path of each registered model (tests/machines/models/), run
// against the real machine with hand-answered actors, a fresh driver (and machine) per path. Then
// what those paths reached of each real machine is held to the targets, so coverage cannot drop
// without a test saying so.
const models = await loadModels();
afterAll(async () => {
  for (const entry of models) await entry.close?.();
});

for (const entry of models) {
  describe(`${entry.title}: model-based paths`, () => {
    if (entry.start) beforeAll(entry.start);
    for (const path of describePaths(entry)) {
      it(`${path.kind} ${path.number}: ${path.path.description}`, async () => {
        await path.path.test(entry.driver());
      });
    }
  });
}

describe('coverage of the real machines by the model paths', () => {
  for (const entry of models) {
    it(`${entry.name}: reaches every state and ${TARGETS.transitions * 100} % of transitions that can be reached, and says why of the rest`, () => {
      const coverage = coverageOf(entry);
      const report = coverageReport([coverage]);
      expect(
        [...coverage.states.missed, ...coverage.transitions.missed]
          .filter((m) => m.reason === null)
          .map((m) => m.label),
        `every state and transition not reached needs its reason in the model entry\n${report}`,
      ).toEqual([]);
      expect(reachableShare(coverage.states), report).toBeGreaterThanOrEqual(TARGETS.states);
      expect(reachableShare(coverage.transitions), report).toBeGreaterThanOrEqual(TARGETS.transitions);
      expect(coverage.stale, 'an unreachable entry that names nothing, or something reached').toEqual([]);
    });
  }
});

describe('the pages for QA (npm run test:paths -- --html)', () => {
  it('writes a page per machine with its diagrams and numbered steps, an index and the JSON', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'model-paths-'));
    try {
      const withPaths = models.map((entry) => ({ entry, paths: describePaths(entry) }));
      await writeHtml(folder, withPaths, models.map(coverageOf), (p) => ({
        model: p.model,
        events: p.steps,
      }));
      expect(readdirSync(folder).sort()).toEqual(
        [...models.map((m) => `${m.name}.html`), 'index.html', 'paths.json'].sort(),
      );
      for (const { entry, paths } of withPaths) {
        const page = readFileSync(join(folder, `${entry.name}.html`), 'utf8');
        // Two drawings: the model and the real machine.
        expect(page.match(/<svg[\s>]/g)?.length, entry.name).toBe(2);
        expect(page).toContain('Shortest path 1: to');
        const first = paths[0];
        expect(first).toBeDefined();
        for (const step of first?.steps ?? []) expect(page).toContain(step.does.replaceAll('"', '&quot;'));
        for (const state of Object.keys(entry.states)) expect(page).toContain(`<code>${state}</code>`);
      }
      const index = readFileSync(join(folder, 'index.html'), 'utf8');
      for (const entry of models) expect(index).toContain(`href="${entry.name}.html"`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
