import type { OnlineDevice } from '../../contracts/service-comms.ts';
import type { Codec } from '../../src/codec/types.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import { type Composed, composeFrame, type Draft } from './compose-frame.ts';
import type { DebugDevice } from './debugger-types.ts';
import { type DebugPath, type LogEntry, prepend } from './exchange-log.ts';
import type { AnswerReport } from './read-answer.ts';

/** The state of the console, and the pure helpers its transitions use. */

export interface DebuggerInput {
  codec: Codec;
  /** The log kept from an earlier visit. */
  log?: LogEntry[];
  timeoutMs?: number;
}

export interface DebuggerContext {
  codec: Codec;
  query: string;
  devices: DebugDevice[];
  searchProblem: string | null;
  /** Devices connected now; null while unknown or when the service offers no online list. */
  online: OnlineDevice[] | null;
  onlineProblem: string | null;
  device: DebugDevice | null;
  product: DeviceProduct | null;
  productProblem: string | null;
  path: DebugPath | null;
  draft: Draft;
  composed: Composed | null;
  /** The frame being sent and the path it goes by, and the last answer with its report. */
  sending: { frame: Uint8Array; path: DebugPath } | null;
  lastAnswer: { frame: Uint8Array; report: AnswerReport } | null;
  log: LogEntry[];
  logProblem: string | null;
  timeoutMs: number;
  sequence: number;
}

export type DebuggerEvent =
  | { type: 'debugger.search'; query: string }
  | { type: 'debugger.refreshOnline' }
  | { type: 'debugger.selectDevice'; device: DebugDevice }
  | { type: 'debugger.selectPath'; path: DebugPath }
  | { type: 'debugger.opcode'; text: string }
  | { type: 'debugger.payloadMode'; mode: Draft['payloadMode'] }
  | { type: 'debugger.payloadHex'; text: string }
  | { type: 'debugger.field'; name: string; value: string }
  | { type: 'debugger.send' }
  | { type: 'debugger.cancel' }
  | { type: 'debugger.clearLog' }
  | { type: 'debugger.loadLog'; text: string }
  | { type: 'debugger.dismissLogProblem' };

/** Whether a serial number is in the online list. */
export function isOnline(online: readonly OnlineDevice[] | null, serialNumber: string): boolean {
  return online?.some((d) => d.serialNumber === serialNumber) ?? false;
}

export function recompose(context: DebuggerContext, draft: Draft): Composed | null {
  return context.product ? composeFrame(context.codec, context.product, draft) : null;
}

export function entry(
  context: DebuggerContext,
  fields: Pick<LogEntry, 'outcome' | 'message'> & Partial<Pick<LogEntry, 'sent' | 'answer'>>,
): LogEntry {
  return {
    id: `${Date.now().toString(36)}-${context.sequence}`,
    at: new Date().toISOString(),
    serialNumber: context.device?.serialNumber ?? '',
    path: context.path,
    sent: fields.sent ?? null,
    answer: fields.answer ?? null,
    outcome: fields.outcome,
    message: fields.message,
  };
}

export function logged(context: DebuggerContext, line: LogEntry) {
  return { log: prepend(context.log, line), sequence: context.sequence + 1 };
}
