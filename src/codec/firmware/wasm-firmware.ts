import { type CodecExports, WasmResult } from '../wasm-exports.ts';
import {
  type FirmwareCodec,
  type FirmwareImage,
  FirmwareImageError,
  type FirmwareImageReader,
  IMAGE_HEADER_SIZE,
  IMAGE_MAGIC,
  MAX_TLV_AREA,
  MODEL_ID_PATTERN,
  TLV,
  TLV_INFO_MAGIC,
  TLV_PROTECTED_MAGIC,
  versionText,
} from './image-types.ts';

const hex4 = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;
const TLV_NAMES: Record<number, string> = {
  [TLV.keyHash]: 'key hash (0x01)',
  [TLV.sha256]: 'SHA-256 (0x10)',
  [TLV.ed25519]: 'Ed25519 signature (0x24)',
  [TLV.modelId]: 'model id (0xa0)',
};
const TLV_LENGTHS: Record<number, string> = {
  [TLV.keyHash]: '32 bytes',
  [TLV.sha256]: '32 bytes',
  [TLV.ed25519]: '64 bytes',
  [TLV.modelId]: '1 to 64 bytes',
};
const tlvName = (type: number) => TLV_NAMES[type] ?? `type ${hex4(type)}`;

/** The reason for a non-zero result of imageTlvs, in words. */
function tlvError(result: number, index: number, protectedLength: number): FirmwareImageError {
  const part = (at: number) => (at < protectedLength ? 'protected TLV area' : 'TLV area');
  switch (result) {
    case WasmResult.tlvMagic:
      return new FirmwareImageError(
        'tlv-magic',
        index === 0 && protectedLength > 0
          ? `the protected TLV area does not start with the magic ${hex4(TLV_PROTECTED_MAGIC)}`
          : `the TLV area does not start with the magic ${hex4(TLV_INFO_MAGIC)}`,
      );
    case WasmResult.tlvLength:
      return new FirmwareImageError(
        'tlv-length',
        index < 0
          ? 'the TLV area is too short for its info header'
          : `the ${part(index)} is not the size its header gives (an entry at byte ${index} of it runs past its end, or its total is wrong)`,
      );
    case WasmResult.tlvMissing:
      return new FirmwareImageError(
        'tlv-missing',
        index === TLV.modelId
          ? 'the image has no model id TLV (0xa0) in its protected TLV area'
          : `the image has no ${tlvName(index)} TLV`,
      );
    case WasmResult.tlvDuplicate:
      return new FirmwareImageError('tlv-duplicate', `the image has more than one ${tlvName(index)} TLV`);
    case WasmResult.tlvPlace:
      return new FirmwareImageError(
        'tlv-place',
        index === TLV.modelId
          ? 'the model id TLV (0xa0) is outside the protected TLV area, where the signature would not cover it'
          : `the ${tlvName(index)} TLV belongs in the unprotected TLV area`,
      );
    case WasmResult.tlvValue:
      return new FirmwareImageError(
        'tlv-value',
        `the ${tlvName(index)} TLV has the wrong length; expected ${TLV_LENGTHS[index] ?? 'another length'}`,
      );
    default:
      return new FirmwareImageError(
        'hash-mismatch',
        "the image's SHA-256 TLV does not match its header, payload and protected TLVs",
      );
  }
}

/**
 * SHA-256 and MCUboot images over a Wasm instance of the codec. Each reader keeps its own copy of
 * the hash state and puts it into the module around each call, so readers may interleave.
 */
export function createWasmFirmware(wasm: CodecExports): FirmwareCodec {
  const buffer = wasm.memory.buffer;
  const ioSize = wasm.ioSize();
  const io = new Uint8Array(buffer, wasm.ioPointer(), ioSize);
  const state = new Uint8Array(buffer, wasm.sha256StatePointer(), wasm.sha256StateSize());
  const digest = new Uint8Array(buffer, wasm.digestPointer(), 32);
  const image = new Uint32Array(buffer, wasm.imagePointer(), 16);

  /** Feeds bytes to the hash whose state is in the module now. */
  function feed(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; at += ioSize) {
      const chunk = bytes.subarray(at, Math.min(at + ioSize, bytes.length));
      io.set(chunk);
      wasm.sha256Update(chunk.length);
    }
  }

  function sha256(bytes: Uint8Array): Uint8Array {
    wasm.sha256Begin();
    feed(bytes);
    wasm.sha256End();
    return digest.slice();
  }

  function readImage(): FirmwareImageReader {
    const own = new Uint8Array(state.length);
    const header = new Uint8Array(IMAGE_HEADER_SIZE);
    let tlvs = new Uint8Array(1024);
    let tlvLength = 0;
    let received = 0;
    /** End of the payload (start of the TLV area) and of the hashed span, once the header is in. */
    let payloadEnd = -1;
    let hashedEnd = -1;
    let failed: FirmwareImageError | undefined;
    /** The header's fields, kept: another reader's header overwrites the module's image region. */
    let fields = new Uint32Array(9);

    function refuse(error: FirmwareImageError): never {
      failed = error;
      throw error;
    }

    function readHeader(): void {
      io.set(header);
      const result = wasm.imageHeader();
      if (result === WasmResult.imageMagic) {
        const magic = new DataView(header.buffer).getUint32(0, true);
        refuse(
          new FirmwareImageError(
            'image-magic',
            `not an MCUboot image: the header starts with 0x${magic.toString(16).padStart(8, '0')}, not 0x${IMAGE_MAGIC.toString(16)}`,
          ),
        );
      }
      if (result === WasmResult.imageHeader)
        refuse(new FirmwareImageError('image-header', 'the header size is below the 32 bytes of a header'));
      if (result !== WasmResult.ok)
        refuse(new FirmwareImageError('image-size', 'the header gives sizes that do not fit 32 bits'));
      fields = image.slice(0, 9);
      payloadEnd = (fields[0] as number) + (fields[2] as number);
      hashedEnd = payloadEnd + (fields[1] as number);
      wasm.sha256Begin();
      own.set(state);
    }

    function keepTlvs(bytes: Uint8Array): void {
      if (tlvLength + bytes.length > MAX_TLV_AREA)
        refuse(
          new FirmwareImageError(
            'image-size',
            `the bytes after the payload (the TLV area) pass ${MAX_TLV_AREA}; the image is longer than its header says`,
          ),
        );
      if (tlvLength + bytes.length > tlvs.length) {
        const grown = new Uint8Array(
          Math.min(MAX_TLV_AREA, Math.max(tlvs.length * 2, tlvLength + bytes.length)),
        );
        grown.set(tlvs.subarray(0, tlvLength));
        tlvs = grown;
      }
      tlvs.set(bytes, tlvLength);
      tlvLength += bytes.length;
    }

    function push(chunk: Uint8Array): void {
      if (failed) throw failed;
      let bytes = chunk;
      if (payloadEnd < 0) {
        const take = Math.min(IMAGE_HEADER_SIZE - received, bytes.length);
        header.set(bytes.subarray(0, take), received);
        if (received + take < IMAGE_HEADER_SIZE) {
          received += take;
          return;
        }
        // The header's own bytes are hashed with the rest: start the hash from the image's first byte.
        readHeader();
        bytes = new Uint8Array(IMAGE_HEADER_SIZE + bytes.length - take);
        bytes.set(header);
        bytes.set(chunk.subarray(take), IMAGE_HEADER_SIZE);
        received = 0;
      }
      const start = received;
      const end = start + bytes.length;
      received = end;
      if (start < hashedEnd) {
        state.set(own);
        feed(bytes.subarray(0, Math.min(bytes.length, hashedEnd - start)));
        own.set(state);
      }
      if (end > payloadEnd) keepTlvs(bytes.subarray(Math.max(0, payloadEnd - start)));
    }

    function finish(): FirmwareImage {
      if (failed) throw failed;
      if (payloadEnd < 0)
        refuse(
          new FirmwareImageError(
            'image-size',
            `the image has ${received} bytes, fewer than the 32 bytes of an MCUboot header`,
          ),
        );
      if (received < hashedEnd + 4)
        refuse(
          new FirmwareImageError(
            'image-size',
            `the image has ${received} bytes; its header says the header, payload and protected TLVs alone take ${hashedEnd}, and a TLV area must follow`,
          ),
        );
      state.set(own);
      wasm.sha256End();
      const protectedLength = fields[1] as number;
      io.set(tlvs.subarray(0, tlvLength));
      const result = wasm.imageTlvs(protectedLength, tlvLength);
      if (result !== WasmResult.ok) refuse(tlvError(result, wasm.errorIndex(), protectedLength));
      const at = (slot: number, length: number) =>
        io.slice(image[slot] as number, (image[slot] as number) + length);
      const modelBytes = at(12, image[13] as number);
      const modelId = new TextDecoder('utf-8', { fatal: false }).decode(modelBytes);
      if (!MODEL_ID_PATTERN.test(modelId))
        refuse(
          new FirmwareImageError(
            'tlv-value',
            'the model id TLV (0xa0) is not a model id (letters, digits, dot, dash or underscore, up to 64)',
          ),
        );
      const version = {
        major: fields[4] as number,
        minor: fields[5] as number,
        revision: fields[6] as number,
        build: fields[7] as number,
      };
      return {
        modelId,
        version,
        versionText: versionText(version),
        size: received,
        headerSize: fields[0] as number,
        payloadSize: fields[2] as number,
        protectedTlvSize: protectedLength,
        flags: fields[3] as number,
        loadAddress: fields[8] as number,
        sha256: digest.slice(),
        keyHash: at(11, 32),
        signature: at(10, 64),
      };
    }

    return {
      push,
      finish,
      get received() {
        return received;
      },
    };
  }

  return {
    sha256,
    readImage,
    parseImage(bytes) {
      const reader = readImage();
      reader.push(bytes);
      return reader.finish();
    },
  };
}
