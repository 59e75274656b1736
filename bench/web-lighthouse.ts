// Lighthouse 12 on the signed-out pages, in its default mobile profile: a phone screen, slow 4G
// (150 ms, 1.6 Mbit/s) and a 4× slower CPU, simulated. Debian's Chromium is launched by
// playwright-core with a debugging port that Lighthouse connects to; nothing is downloaded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/e2e/browser.ts';
import { findChromium } from '../tests/e2e/find-chromium.ts';
import { freePort } from '../tests/free-port.ts';

export interface LighthouseScores {
  path: string;
  performance: number;
  accessibility: number;
  /** The metrics behind the performance score, in ms (CLS unitless). */
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Titles of the accessibility audits that failed, to say what to fix. */
  accessibilityFailures: string[];
}

const score = (value: number | null | undefined) => Math.round((value ?? 0) * 100) / 100;

/**
 * Runs Lighthouse (performance and accessibility) on each path of `origin`, one after another in
 * one browser; each run starts with empty storage, as Lighthouse's navigation does by default.
 */
export async function runLighthouse(origin: string, paths: string[]): Promise<LighthouseScores[]> {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'fleet-lighthouse-'));
  // A persistent context: Lighthouse opens its own tab over the debugging port.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium(),
    headless: true,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  const results: LighthouseScores[] = [];
  try {
    for (const path of paths) {
      const run = await lighthouse(`${origin}${path}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      });
      if (!run) throw new Error(`Lighthouse gave no result for ${path}`);
      const { categories, audits } = run.lhr;
      const numeric = (id: string) => Math.round(audits[id]?.numericValue ?? Number.NaN);
      const a11yFailures = (categories.accessibility?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0)
        .map((ref) => audits[ref.id]?.title ?? ref.id);
      results.push({
        path,
        performance: score(categories.performance?.score),
        accessibility: score(categories.accessibility?.score),
        fcpMs: numeric('first-contentful-paint'),
        lcpMs: numeric('largest-contentful-paint'),
        tbtMs: numeric('total-blocking-time'),
        cls: Math.round((audits['cumulative-layout-shift']?.numericValue ?? Number.NaN) * 1000) / 1000,
        accessibilityFailures: a11yFailures,
      });
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return results;
}
