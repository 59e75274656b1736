import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[]; html: string; summary?: string }[];
}

/**
 * Runs axe-core in the page and returns its serious and critical violations, one line each.
 * The script is evaluated rather than added as a tag, so the page's Content-Security-Policy
 * does not stop it.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  // Colours are read from a settled page: a fade or a button's transition still running would
  // show axe a half-transparent text (spinners, which never end, are left running).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
  const violations = (await page.evaluate(`(async () => {
    if (!window.axe) { ${AXE_SOURCE}\n }
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html.slice(0, 160), summary: n.failureSummary })) }));
  })()`)) as AxeViolation[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  // The elements and axe's reasons, in the test's output, for whoever reads a failure.
  for (const v of serious)
    for (const n of v.nodes) console.error(`axe ${v.id}: ${n.html}\n${n.summary ?? ''}`);
  return serious.map(
    (v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`,
  );
}

/** Fails the test with every serious or critical accessibility violation on the page, named. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
}
