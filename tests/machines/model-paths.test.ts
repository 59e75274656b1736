import { describe, expect, it } from 'vitest';
import { coverageOf, coverageReport, reachableShare, TARGETS } from './paths/coverage.ts';
import { describePaths } from './paths/model-paths.ts';
import { loadModels } from './paths/registry.ts';

// Every shortest and every simple path of each registered model (tests/machines/models/), run
// against the real machine with hand-answered actors, a fresh driver (and machine) per path. Then
// what those paths reached of each real machine is held to the targets, so coverage cannot drop
// without a test saying so.
const models = await loadModels();

for (const entry of models) {
  describe(`${entry.title}: model-based paths`, () => {
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
