// The package's Node entry: the codec from the codec.wasm shipped beside this file.
import { fileURLToPath } from 'node:url';
import type { FirmwareCodec } from '../firmware/image-types.ts';
import { loadCodecFile, loadFirmwareCodecFile } from '../load-node.ts';
import type { Codec } from '../types.ts';

export * from './common.ts';

/**
 * Reads, compiles and instantiates the codec module: the release build shipped in the package
 * unless `file` names another. Each call makes a new instance; load once and keep the codec.
 *
 * @example
 * import { loadCodec } from '@fleet-manager/codec';
 * const codec = await loadCodec();
 * codec.crc16(new TextEncoder().encode('123456789')); // 0x4b37
 * @throws CodecLoadError naming the file when it is missing, not WebAssembly, or lacks an export.
 */
export function loadCodec(file: string | URL = new URL('./codec.wasm', import.meta.url)): Promise<Codec> {
  return loadCodecFile(file instanceof URL ? fileURLToPath(file) : file);
}

/**
 * The firmware half of the same module (SHA-256 and the MCUboot image parser), its own instance:
 * the release build shipped in the package unless `file` names another.
 *
 * @example
 * import { loadFirmwareCodec } from '@fleet-manager/codec';
 * const firmware = await loadFirmwareCodec();
 * firmware.parseImage(bytes).versionText; // '1.2.0', or a FirmwareImageError naming what is wrong
 * @throws CodecLoadError naming the file when it is missing, not WebAssembly, or lacks an export.
 */
export function loadFirmwareCodec(
  file: string | URL = new URL('./codec.wasm', import.meta.url),
): Promise<FirmwareCodec> {
  return loadFirmwareCodecFile(file instanceof URL ? fileURLToPath(file) : file);
}
