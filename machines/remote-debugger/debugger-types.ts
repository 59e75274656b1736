import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import type { DebugPath, ExchangeOutcome } from './exchange-log.ts';

/** A device the person may debug, as the device search finds it. */
export interface DebugDevice {
  serialNumber: string;
  modelId: string;
  name: string;
  siteName: string;
}

/** What the send actor needs: the frame, where it goes and how. */
export interface SendInput {
  path: DebugPath;
  serialNumber: string;
  product: DeviceProduct;
  frame: Uint8Array;
}

/**
 * A command that got no usable answer, in words for the log: `offline` (the device went away or
 * the link dropped), `timeout` (no answer in time) or `failed` (anything else).
 */
export class ExchangeFailure extends Error {
  readonly outcome: Extract<ExchangeOutcome, 'offline' | 'timeout' | 'failed'>;

  constructor(outcome: ExchangeFailure['outcome'], message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'ExchangeFailure';
    this.outcome = outcome;
  }
}
