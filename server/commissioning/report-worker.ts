import type { ReportData } from './report-data.ts';
import { reportPdf } from './report-pdf.ts';

/**
 * Runs in a worker thread of the report pool (`report-pool.ts`): lays a report out and answers
 * its PDF bytes. Laying out hundreds of pages takes seconds of CPU, which on the main thread
 * stalled every other request of the process.
 */
export default async function buildReport(data: ReportData): Promise<Uint8Array> {
  return new Uint8Array(await reportPdf(data));
}
