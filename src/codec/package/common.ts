// What both entries of the package export besides their own loadCodec.
export {
  type FirmwareCodec,
  type FirmwareImage,
  FirmwareImageError,
  type FirmwareImageErrorCode,
  type FirmwareImageReader,
  type FirmwareVersion,
  IMAGE_MAGIC,
  TLV,
} from '../firmware/image-types.ts';
export { CodecLoadError } from '../load-error.ts';
export { referenceCodec } from '../reference-codec.ts';
export {
  type BufferDescriptor,
  type Codec,
  CodecError,
  type CodecErrorCode,
  DATA_VIEW_LENGTH,
  type FieldList,
  type FieldTable,
  type FieldWidth,
  MAX_BUFFER_SIZE,
  PASSWORD_LENGTH,
} from '../types.ts';
export { codecFromModule } from '../wasm-load.ts';
