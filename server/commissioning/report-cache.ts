import { createHash } from 'node:crypto';
import { hitRateLimit, type LimitCounter } from '../auth/rate-limit.ts';
import { ApiError } from '../http/errors.ts';
import { limitChecks } from '../limits/request-limits.ts';
import type { ReportData } from './report-data.ts';
import type { ReportPool } from './report-pool.ts';

/** Sites whose newest report this process keeps. */
const CACHED_SITES = 64;

interface Built {
  key: string;
  date: Date;
  pdf: Promise<Uint8Array>;
}

/** What a report is built from, as a key: everything it shows but the moment it was made. */
function keyOf(data: ReportData): string {
  return createHash('sha256')
    .update(JSON.stringify({ ...data, date: null }))
    .digest('base64url');
}

/**
 * The newest report of each site, kept per process and keyed by what it is built from: asked
 * again while nothing it shows changed (the devices, their settings and who wrote them, whether
 * they are online, the site and its people), the same PDF is answered without building it again;
 * several callers asking at once share one build. Builds of one site are limited in the database
 * (`reportBuildPerSite`), so every process of a deployment counts them together.
 */
export class ReportCache {
  readonly #sites = new Map<number, Built>();

  constructor(
    private readonly counter: LimitCounter,
    private readonly pool: ReportPool,
  ) {}

  /**
   * The site's report for this data, and the moment it was made.
   * @throws {ApiError} 429 `rate_limited` past the site's builds; 503 `reports_busy` when the
   *   pool's queue is full.
   */
  async pdf(siteId: number, data: ReportData): Promise<{ pdf: Uint8Array; date: Date }> {
    const key = keyOf(data);
    const known = this.#sites.get(siteId);
    if (known?.key === key) return { pdf: await known.pdf, date: known.date };
    await hitRateLimit(this.counter, limitChecks('report', { reportBuildPerSite: siteId }));
    if (!this.pool.acceptsMore) {
      const busy = new ApiError(
        503,
        'reports_busy',
        'Many reports are being made right now; try again in a minute',
      );
      busy.retryAfter = 60;
      throw busy;
    }
    const built: Built = { key, date: data.date, pdf: this.pool.build(data) };
    this.#sites.delete(siteId);
    if (this.#sites.size >= CACHED_SITES) this.#sites.delete(this.#sites.keys().next().value as number);
    this.#sites.set(siteId, built);
    try {
      return { pdf: await built.pdf, date: built.date };
    } catch (error) {
      if (this.#sites.get(siteId) === built) this.#sites.delete(siteId);
      throw error;
    }
  }
}
