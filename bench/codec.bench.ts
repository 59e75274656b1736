// npm run bench:codec — CRC throughput and per-frame figures for the Wasm codec, the TypeScript
// reference and the `crc` package, decode of a 64-field frame plus verify (from a descriptor array
// and from a prepared table), and the module's size.
import { statSync } from 'node:fs';
import crc16modbus from 'crc/crc16modbus';
import { CODEC_WASM_PATH, loadCodec } from '../src/codec/load-node.ts';
import { referenceCodec } from '../src/codec/reference-codec.ts';
import type { BufferDescriptor, Codec, FieldList, FieldWidth } from '../src/codec/types.ts';
import { type Figure, megabytesPerSecond, nsPerCall, report } from './codec-timing.ts';

const wasm = await loadCodec();
const MIB = 1 << 20;
const big = Buffer.alloc(MIB);
for (let i = 0; i < MIB; i++) big[i] = (i * 7919 + 13) & 0xff;
const frame = Buffer.from(wasm.buildFrame(0x10, 255, big.subarray(0, 252)));
const span = frame.subarray(0, 253);

if (wasm.crc16(big) !== crc16modbus(big) || referenceCodec.crc16(big) !== crc16modbus(big)) {
  throw new Error('the implementations disagree on the CRC of the benchmark input');
}

// 64 fields of mixed widths, signedness and byte order, packed into the 254-byte view.
const fields: BufferDescriptor[] = [];
for (let i = 0, position = 1; i < 64; i++) {
  const length = ([8, 16, 32] as FieldWidth[])[i % 3] as FieldWidth;
  fields.push({ position, length, signed: i % 2 === 0, littleEndian: i % 4 < 2 });
  position += length / 8;
}

const table = wasm.prepareFields(fields);

function decodeAndVerify(codec: Codec, list: FieldList = fields): () => void {
  return () => {
    codec.verifyFrame(frame, 255);
    codec.decodeFields(frame, list);
  };
}

const figures: Figure[] = [];
const add = (name: string, label: string, value: number, unit: string): number => {
  figures.push({ name, label, value, unit });
  return value;
};

const [mibWasm, mibTs, mibPkg] = nsPerCall([
  () => wasm.crc16(big),
  () => referenceCodec.crc16(big),
  () => crc16modbus(big),
]) as [number, number, number];
const crcWasm = add('crc16.1mib.wasm', 'CRC 1 MiB, Wasm', megabytesPerSecond(MIB, mibWasm), 'MB/s');
add('crc16.1mib.ts', 'CRC 1 MiB, TS reference', megabytesPerSecond(MIB, mibTs), 'MB/s');
const crcPkg = add('crc16.1mib.crc_pkg', 'CRC 1 MiB, crc package', megabytesPerSecond(MIB, mibPkg), 'MB/s');

const [spanWasm, spanTs, spanPkg] = nsPerCall([
  () => wasm.crc16(span),
  () => referenceCodec.crc16(span),
  () => crc16modbus(span),
]) as [number, number, number];
add('crc16.frame255.wasm', 'CRC of a 255-byte frame, Wasm', spanWasm, 'ns');
add('crc16.frame255.ts', 'CRC of a 255-byte frame, TS reference', spanTs, 'ns');
add('crc16.frame255.crc_pkg', 'CRC of a 255-byte frame, crc package', spanPkg, 'ns');

const [decodeWasm, decodePrepared, decodeTs] = nsPerCall([
  decodeAndVerify(wasm),
  decodeAndVerify(wasm, table),
  decodeAndVerify(referenceCodec),
]) as [number, number, number];
add('decode64.wasm', 'decode 64 fields + verify, Wasm', decodeWasm, 'ns');
add('decode64.prepared', 'decode 64 fields + verify, Wasm, prepared table', decodePrepared, 'ns');
add('decode64.ts', 'decode 64 fields + verify, TS reference', decodeTs, 'ns');
add('wasm.size', 'codec.wasm size', statSync(CODEC_WASM_PATH).size, 'bytes');
add('crc16.wasm_vs_crc_pkg', 'CRC 1 MiB throughput, Wasm / crc package', crcWasm / crcPkg, 'x');
add('decode64.wasm_vs_ts', 'decode 64 + verify speed, Wasm / TS reference', decodeTs / decodeWasm, 'x');

report(figures);
