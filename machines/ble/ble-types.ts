import { errorMessage } from '../../contracts/error-message.ts';
import type { ReadConfiguration } from '../../src/ble/device-commands.ts';
import type { BleLink, BleTarget, BleTransport } from '../../src/ble/transport.ts';
import { TransportError, type TransportErrorKind } from '../../src/ble/transport-error.ts';

export type { ReadConfiguration } from '../../src/ble/device-commands.ts';
export type { BleLink, BleTarget, BleTransport } from '../../src/ble/transport.ts';

/** A failure as the screens show it: what went wrong, in words, and its kind to branch on. */
export interface BleProblem {
  kind: TransportErrorKind | 'unexpected';
  message: string;
}

/** Any thrown value as a {@link BleProblem}; unexpected errors keep their message. */
export function problemOf(error: unknown): BleProblem {
  if (error instanceof TransportError) return { kind: error.kind, message: error.message };
  return { kind: 'unexpected', message: errorMessage(error) };
}

/** Input of the actor that reconnects to a device chosen before. */
export interface ReconnectInput {
  transport: BleTransport;
  id: string;
  target: BleTarget;
}

/** A link that is connected, discovered and has just been read. */
export interface ReadyLink {
  link: BleLink;
  config: ReadConfiguration;
}
