import { errorMessage } from '../../contracts/error-message.ts';
import { TRANSPORT_MESSAGES, TransportError } from './transport-error.ts';

/** The DOMException name of an error, if it has one. */
function nameOf(error: unknown): string {
  return error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error)
    ? String((error as { name: unknown }).name)
    : '';
}

/**
 * A GATT failure worth one more try: Chromium answers a second operation while one is in flight with
 * a NetworkError "GATT operation already in progress", and some adapters with "Unknown error".
 */
export function isTransientGattError(error: unknown): boolean {
  return nameOf(error) === 'NetworkError' && /in progress|unknown error|busy/i.test(errorMessage(error));
}

/** Closing the chooser without a device: the person changed their mind, not an error. */
export function isChooserCancelled(error: unknown): boolean {
  return (
    nameOf(error) === 'NotFoundError' && !/adapter|bluetooth.*(off|not available)/i.test(errorMessage(error))
  );
}

export type GattStage = 'choose' | 'connect' | 'discover' | 'operation';

/**
 * Turns a Web Bluetooth exception into a {@link TransportError} a person can act on.
 * @example throw webBluetoothError(error, 'connect');
 */
export function webBluetoothError(error: unknown, stage: GattStage, connected = true): TransportError {
  if (error instanceof TransportError) return error;
  const name = nameOf(error);
  const options = { cause: error };
  if (name === 'SecurityError' || (name === 'NotFoundError' && stage === 'choose'))
    return new TransportError('unavailable', TRANSPORT_MESSAGES.unavailable, options);
  if (name === 'NotSupportedError' && stage === 'choose')
    return new TransportError('unavailable', TRANSPORT_MESSAGES.unavailable, options);
  if (stage === 'discover' && (name === 'NotFoundError' || name === 'NotSupportedError'))
    return new TransportError('missing-service', TRANSPORT_MESSAGES.missingService, options);
  if (stage === 'connect') return new TransportError('out-of-range', TRANSPORT_MESSAGES.outOfRange, options);
  if (!connected) return new TransportError('disconnected', TRANSPORT_MESSAGES.disconnected, options);
  if (isTransientGattError(error))
    return new TransportError('transient', `The device was busy: ${errorMessage(error)}`, options);
  return new TransportError(
    'disconnected',
    `${TRANSPORT_MESSAGES.disconnected} (${errorMessage(error)})`,
    options,
  );
}
