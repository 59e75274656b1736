// The codec's Wasm exports. Inputs and outputs travel through the static I/O region (see layout.ts);
// every checked export returns 0 or an E_* code from errors.ts, with errorIndex() naming the item.
export { crc16 } from './crc';
export { errorIndex } from './errors';
export { decodeFields, encodeFields } from './fields';
export { buildFrame, passwordCodes } from './frame';
export { imageHeader, imageTlvs } from './image';
export {
  descriptorPointer,
  digestPointer,
  imagePointer,
  ioPointer,
  ioSize,
  maxFields,
  sha256StatePointer,
  sha256StateSize,
  valuePointer,
} from './layout';
export { sha256Begin, sha256End, sha256Update } from './sha256';
