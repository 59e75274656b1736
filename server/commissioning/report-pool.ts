import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { ReportData } from './report-data.ts';

/** Worker threads for reports by default: every core but one (the main thread's), at least one. */
export function defaultReportWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * Commissioning reports are built in a pool of worker threads (DESIGN.md §14), never on the main
 * thread, so a large report leaves every other request of the process as fast as before. The
 * threads start when the first report is asked for; `REPORT_WORKERS` sets how many (default: the
 * cores but one). Reports wait in a queue of at most `queue` behind busy threads; past it the
 * caller is told the service is busy.
 */
export class ReportPool {
  #pool: Piscina | undefined;

  constructor(
    readonly threads: number,
    readonly queue = 4 * threads,
  ) {}

  /** Whether another report may wait now (the queue is not full). */
  get acceptsMore(): boolean {
    return !this.#pool || this.#pool.queueSize < this.queue;
  }

  /** The report as PDF bytes, built in a worker thread. */
  async build(data: ReportData): Promise<Uint8Array> {
    this.#pool ??= new Piscina({
      filename: new URL('./report-worker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: this.threads,
      maxQueue: this.queue,
      idleTimeout: 60_000,
      // Workers load the TypeScript sources as the server does.
      execArgv: ['--import', 'tsx'],
    });
    return this.#pool.run(data);
  }

  async close(): Promise<void> {
    await this.#pool?.destroy();
    this.#pool = undefined;
  }
}
