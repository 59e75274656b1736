import { type Codec, CodecError } from '../../src/codec/types.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import { parseOpcode, readTypedHex } from './hex.ts';

/** How the payload after the opcode is entered: raw hex, or named rawData fields. */
export type PayloadMode = 'hex' | 'fields';

/** What the person has typed so far. */
export interface Draft {
  opcodeText: string;
  payloadMode: PayloadMode;
  payloadHex: string;
  /** rawData name → value in display units (× multiplier), as typed; empty means 0. */
  fieldValues: Record<string, string>;
}

export const EMPTY_DRAFT: Draft = { opcodeText: '01', payloadMode: 'hex', payloadHex: '', fieldValues: {} };

/** A sealed frame ready to send, or why the draft cannot be one. */
export type Composed = { ok: true; frame: Uint8Array } | { ok: false; message: string };

export const OPCODE_MESSAGE = 'The opcode must be one byte in hex, 00 to FF.';

/** Bytes a payload may take: the frame less the opcode and the two CRC bytes. */
export function payloadRoom(bufferSize: number): number {
  return bufferSize - 3;
}

function fieldsFrame(codec: Codec, product: DeviceProduct, opcode: number, draft: Draft): Composed {
  const frame = codec.buildFrame(opcode, product.entry.write.bufferSize);
  const view = codec.dataView(frame);
  for (const item of product.config.rawData) {
    const text = (draft.fieldValues[item.name] ?? '').trim();
    if (text === '') continue;
    const value = Number(text);
    if (!Number.isFinite(value)) return { ok: false, message: `${item.name}: “${text}” is not a number.` };
    try {
      codec.writeField(view, item.buffer, Math.round(value / item.multiplier));
    } catch (error) {
      if (!(error instanceof CodecError)) throw error;
      return {
        ok: false,
        message: `${item.name}: ${text} does not fit its ${item.buffer.length}-bit field.`,
      };
    }
  }
  codec.sealFrame(frame);
  return { ok: true, frame };
}

/**
 * The command frame of a draft, built and sealed by the codec: `bufferSize` bytes, the opcode at
 * byte 0, the payload from byte 1 (hex, or each named field at its position), zeros, and
 * CRC-16/MODBUS in the last two bytes, low byte first.
 * @example composeFrame(codec, product, { ...EMPTY_DRAFT, opcodeText: '03' }) // { ok: true, frame: 03 00 … CRC }
 */
export function composeFrame(codec: Codec, product: DeviceProduct, draft: Draft): Composed {
  const opcode = parseOpcode(draft.opcodeText);
  if (opcode === null) return { ok: false, message: OPCODE_MESSAGE };
  const size = product.entry.write.bufferSize;
  if (draft.payloadMode === 'fields') return fieldsFrame(codec, product, opcode, draft);
  const payload = readTypedHex(draft.payloadHex);
  if (!payload.ok) return { ok: false, message: `Payload: ${payload.message}` };
  if (payload.bytes.length > payloadRoom(size))
    return {
      ok: false,
      message: `The payload has ${payload.bytes.length} bytes, but a frame of ${size} bytes holds at most ${payloadRoom(size)} between the opcode and the CRC.`,
    };
  return { ok: true, frame: codec.buildFrame(opcode, size, payload.bytes) };
}
