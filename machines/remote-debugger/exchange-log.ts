import { z } from 'zod';

/** The log keeps this many exchanges, newest first; older ones drop off. */
export const LOG_LIMIT = 200;

/** Where the log lives between visits. */
export const LOG_STORAGE_KEY = 'fleet.remoteDebugger.log';

/** How a command reaches the device. */
export const debugPathSchema = z.enum(['remote', 'bluetooth', 'demo']);
export type DebugPath = z.infer<typeof debugPathSchema>;

/**
 * What happened to one command: answered, an error answer, a damaged answer, no answer in time,
 * the device gone (offline or the link dropped), any other failure, or refused before sending.
 */
export const outcomeSchema = z.enum([
  'answered',
  'device-error',
  'bad-answer',
  'timeout',
  'offline',
  'failed',
  'rejected',
]);
export type ExchangeOutcome = z.infer<typeof outcomeSchema>;

const bytesSchema = z.array(z.number().int().min(0).max(255)).max(512);

/** One line of the log. */
export const logEntrySchema = z.object({
  id: z.string().min(1),
  at: z.string().min(1),
  serialNumber: z.string(),
  path: debugPathSchema.nullable(),
  outcome: outcomeSchema,
  message: z.string(),
  sent: bytesSchema.nullable(),
  answer: bytesSchema.nullable(),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

/** A saved log file: marked as ours, so that another JSON file is refused by name. */
export const logFileSchema = z.object({
  kind: z.literal('fleet-manager-remote-debugger-log'),
  version: z.literal(1),
  entries: z.array(logEntrySchema).max(LOG_LIMIT),
});
export type LogFile = z.infer<typeof logFileSchema>;

/** The log as a file to copy or save. */
export function logFileText(entries: readonly LogEntry[]): string {
  const file: LogFile = { kind: 'fleet-manager-remote-debugger-log', version: 1, entries: [...entries] };
  return JSON.stringify(file, null, 2);
}

/** A file read back, or what is wrong with it. */
export type LoadedLog = { ok: true; entries: LogEntry[] } | { ok: false; message: string };

/**
 * Reads a saved log file, checking every entry.
 * @example parseLogFile(logFileText(entries)) // { ok: true, entries }
 */
export function parseLogFile(text: string): LoadedLog {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'This file is not JSON, so it is not a saved debugger log.' };
  }
  const result = logFileSchema.safeParse(json);
  if (result.success) return { ok: true, entries: result.data.entries };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
  return {
    ok: false,
    message: `This file is not a saved debugger log${where}: ${issue?.message ?? 'unexpected content'}.`,
  };
}

/** Adds a line at the top and keeps the log within {@link LOG_LIMIT}. */
export function prepend(entries: readonly LogEntry[], entry: LogEntry): LogEntry[] {
  return [entry, ...entries].slice(0, LOG_LIMIT);
}

/** The log kept in storage; an unreadable one starts empty rather than breaking the page. */
export function loadStoredLog(storage: Pick<Storage, 'getItem'>): LogEntry[] {
  const text = storage.getItem(LOG_STORAGE_KEY);
  if (!text) return [];
  const loaded = parseLogFile(text);
  return loaded.ok ? loaded.entries : [];
}

/** Keeps the log for the next visit; a full or blocked storage only loses persistence. */
export function storeLog(storage: Pick<Storage, 'setItem'>, entries: readonly LogEntry[]): void {
  try {
    storage.setItem(LOG_STORAGE_KEY, logFileText(entries));
  } catch {
    // Quota or privacy mode: the log still lives in the page.
  }
}
