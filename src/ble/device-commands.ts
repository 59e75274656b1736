import type { DeviceEntry } from '../../contracts/catalogue.ts';
import { type Codec, CodecError } from '../codec/types.ts';
import { type DecodedConfig, decodeConfiguration } from '../device-config/decode-values.ts';
import type { DeviceProduct } from '../device-config/load-product.ts';
import {
  answerOpcode,
  ERROR_OPCODE,
  type ErrorCodeName,
  errorCodeName,
  OPCODE,
  PASSWORD_RESULT,
  type Provisioning,
  provisioningPayload,
} from '../device-protocol/protocol.ts';
import { OperationQueue } from './operation-queue.ts';
import type { BleLink, BleTarget } from './transport.ts';
import { TransportError } from './transport-error.ts';

/** What the person reads when the device answers with an error code. */
const DEVICE_ERROR_MESSAGES: Record<ErrorCodeName, string> = {
  crcMismatch: 'The device received a damaged frame and ignored it.',
  frameLength: 'The device expected a frame of another size and ignored it.',
  unknownOpcode: 'The device does not know this command.',
  noCommand: 'The device had no answer ready.',
  locked: 'The device is locked: give its password first.',
  outOfRange: 'The device refused a setting outside its limits.',
  badPayload: 'The device could not read the secret and address it was sent.',
};

/** The device answered a command with an error answer (opcode 0xEE). */
export class DeviceAnswerError extends TransportError {
  readonly code: ErrorCodeName | 'unknown';

  constructor(code: ErrorCodeName | undefined) {
    super('device-error', code ? DEVICE_ERROR_MESSAGES[code] : 'The device answered with an unknown error.');
    this.name = 'DeviceAnswerError';
    this.code = code ?? 'unknown';
  }
}

/** The transport target of a model: its write definition and serial prefix. */
export function targetOf(entry: DeviceEntry): BleTarget {
  return {
    service: entry.write.service,
    characteristic: entry.write.characteristic,
    bufferSize: entry.write.bufferSize,
    namePrefix: entry.serialPrefix,
  };
}

const exchanges = new WeakMap<BleLink, OperationQueue>();

/**
 * Writes a command frame and reads its answer as one step (no other command between them), then
 * checks the answer: size and CRC, an error answer, and that it answers this command.
 * @throws TransportError from the link; 'bad-answer' for a damaged or unrelated answer;
 *   DeviceAnswerError ('device-error') for an error answer.
 * @example const answer = await exchange(codec, link, frame);
 */
export function exchange(codec: Codec, link: BleLink, frame: Uint8Array): Promise<Uint8Array> {
  let queue = exchanges.get(link);
  if (!queue) {
    queue = new OperationQueue();
    exchanges.set(link, queue);
  }
  return queue.run(async () => {
    await link.write(frame);
    const answer = await link.read();
    try {
      codec.verifyFrame(answer, frame.length);
    } catch (error) {
      if (!(error instanceof CodecError)) throw error;
      throw new TransportError(
        'bad-answer',
        `The device's answer was damaged on the way (${error.message}).`,
        { cause: error },
      );
    }
    if (answer[0] === ERROR_OPCODE) throw new DeviceAnswerError(errorCodeName(answer));
    if (answer[0] !== answerOpcode(frame[0] ?? 0))
      throw new TransportError('bad-answer', 'The device answered another command than the one sent.');
    return answer;
  });
}

/** A configuration as read from the device: the answer frame and its decoded values. */
export interface ReadConfiguration {
  frame: Uint8Array;
  decoded: DecodedConfig;
}

/**
 * Reads the device's configuration and live values (`Read configuration`, 0x01).
 * @example const { decoded } = await readConfiguration(codec, link, product);
 */
export async function readConfiguration(
  codec: Codec,
  link: BleLink,
  product: DeviceProduct,
): Promise<ReadConfiguration> {
  const frame = await exchange(
    codec,
    link,
    codec.buildFrame(OPCODE.readConfiguration, product.entry.write.bufferSize),
  );
  return { frame, decoded: decodeConfiguration(codec, product.config, frame) };
}

/**
 * Gives the device a password (`Check password`, 0x04); true when it was right. The password is text:
 * `0042` is four character codes, never the number 42.
 * @throws CodecError 'password-too-long' or 'password-character' before anything is sent.
 */
export async function sendPassword(
  codec: Codec,
  link: BleLink,
  product: DeviceProduct,
  password: string,
): Promise<boolean> {
  const payload = Uint8Array.from(codec.passwordCodes(password));
  const frame = codec.buildFrame(OPCODE.checkPassword, product.entry.write.bufferSize, payload);
  const answer = await exchange(codec, link, frame);
  return answer[1] === PASSWORD_RESULT.correct;
}

/**
 * Runs a catalogue command (restart, reset counters, …) and resolves when the device says it is done.
 * @throws DeviceAnswerError when the device refuses it (locked, unknown).
 */
export async function runCommand(codec: Codec, link: BleLink, product: DeviceProduct, opCode: number) {
  await exchange(codec, link, codec.buildFrame(opCode, product.entry.write.bufferSize));
}

/**
 * Gives the device its service-comms secret and the service's address (`Provision`, 0x05); resolves
 * when the device says it keeps them. The connection must be unlocked (its password given).
 * @throws RangeError before anything is sent for a secret or address the frame cannot carry;
 *   DeviceAnswerError when the device refuses (locked).
 */
export async function sendProvisioning(
  codec: Codec,
  link: BleLink,
  product: DeviceProduct,
  provisioning: Provisioning,
): Promise<void> {
  const frame = codec.buildFrame(
    OPCODE.provision,
    product.entry.write.bufferSize,
    provisioningPayload(provisioning),
  );
  await exchange(codec, link, frame);
}
