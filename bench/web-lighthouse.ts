// Lighthouse 12 on the signed-out pages, in its default mobile profile: a phone screen, slow 4G
// (150 ms, 1.6 Mbit/s) and a 4× slower CPU, simulated. Debian's Chromium is launched by
// playwright-core with a debugging port that Lighthouse connects to; nothing is downloaded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { findChromium } from '../tests/e2e/find-chromium.ts';
import { freePort } from '../tests/free-port.ts';
import { MEASURING_ARGS } from './web-load.ts';

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
  /** The performance score of every run, the one reported being their median. */
  performanceRuns: number[];
}

const score = (value: number | null | undefined) => Math.round((value ?? 0) * 100) / 100;

/**
 * Runs Lighthouse (performance and accessibility) on each path of `origin`, `runs` times, one
 * after another in one browser; each run starts with empty storage, as Lighthouse's navigation
 * does by default. A path's figures are those of its run with the median performance score: one
 * run's score moves by ±0.05 from one run to the next.
 */
export async function runLighthouse(origin: string, paths: string[], runs = 3): Promise<LighthouseScores[]> {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'fleet-lighthouse-'));
  // A persistent context: Lighthouse opens its own tab over the debugging port.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium(),
    headless: true,
    args: [...MEASURING_ARGS, `--remote-debugging-port=${port}`],
  });
  const results: LighthouseScores[] = [];
  try {
    for (const path of paths) {
      const all: Omit<LighthouseScores, 'performanceRuns'>[] = [];
      for (let i = 0; i < runs; i++) all.push(await runOnce(port, origin, path));
      const sorted = [...all].sort((a, b) => a.performance - b.performance);
      const median = sorted[Math.floor(sorted.length / 2)];
      if (!median) throw new Error(`Lighthouse made no run of ${path}`);
      results.push({ ...median, performanceRuns: all.map((r) => r.performance) });
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return results;
}

async function runOnce(
  port: number,
  origin: string,
  path: string,
): Promise<Omit<LighthouseScores, 'performanceRuns'>> {
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
  return {
    path,
    performance: score(categories.performance?.score),
    accessibility: score(categories.accessibility?.score),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: Math.round((audits['cumulative-layout-shift']?.numericValue ?? Number.NaN) * 1000) / 1000,
    accessibilityFailures: a11yFailures,
  };
}
