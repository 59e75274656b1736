import { CRC_TABLES, IO } from './layout';

// CRC-16/MODBUS: reflected polynomial 0xA001, both CRC bytes start at 0xFF.
const POLY: u32 = 0xa001;

function entry(table: u32, index: u32): u32 {
  return <u32>load<u16>(CRC_TABLES + (table << 9) + (index << 1));
}

// Table 0 is the classic byte-at-a-time table; table k advances a byte through k more zero bytes,
// so sixteen input bytes fold into the CRC with sixteen lookups and no data-dependent branch.
function fillTables(): void {
  for (let i: u32 = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ POLY : c >> 1;
    store<u16>(CRC_TABLES + (i << 1), <u16>c);
  }
  for (let t: u32 = 1; t < 16; t++) {
    for (let i: u32 = 0; i < 256; i++) {
      const prev = entry(t - 1, i);
      store<u16>(CRC_TABLES + (t << 9) + (i << 1), <u16>((prev >> 8) ^ entry(0, prev & 0xff)));
    }
  }
}

fillTables();

/** Continues `crc` over `length` bytes at `ptr` (slice-by-16, then byte at a time for the tail). */
export function crcUpdate(crc: u32, ptr: usize, length: usize): u32 {
  // Lookups are spelled out (no helper call) so the hot loop stays one straight block of loads.
  const t = CRC_TABLES;
  let p = ptr;
  const end = ptr + length;
  while (p + 16 <= end) {
    const a = load<u32>(p) ^ crc;
    const b = load<u32>(p, 4);
    const c = load<u32>(p, 8);
    const d = load<u32>(p, 12);
    crc =
      <u32>load<u16>(t + 7680 + ((a & 0xff) << 1)) ^
      <u32>load<u16>(t + 7168 + (((a >> 8) & 0xff) << 1)) ^
      <u32>load<u16>(t + 6656 + (((a >> 16) & 0xff) << 1)) ^
      <u32>load<u16>(t + 6144 + ((a >> 24) << 1)) ^
      <u32>load<u16>(t + 5632 + ((b & 0xff) << 1)) ^
      <u32>load<u16>(t + 5120 + (((b >> 8) & 0xff) << 1)) ^
      <u32>load<u16>(t + 4608 + (((b >> 16) & 0xff) << 1)) ^
      <u32>load<u16>(t + 4096 + ((b >> 24) << 1)) ^
      <u32>load<u16>(t + 3584 + ((c & 0xff) << 1)) ^
      <u32>load<u16>(t + 3072 + (((c >> 8) & 0xff) << 1)) ^
      <u32>load<u16>(t + 2560 + (((c >> 16) & 0xff) << 1)) ^
      <u32>load<u16>(t + 2048 + ((c >> 24) << 1)) ^
      <u32>load<u16>(t + 1536 + ((d & 0xff) << 1)) ^
      <u32>load<u16>(t + 1024 + (((d >> 8) & 0xff) << 1)) ^
      <u32>load<u16>(t + 512 + (((d >> 16) & 0xff) << 1)) ^
      <u32>load<u16>(t + ((d >> 24) << 1));
    p += 16;
  }
  while (p < end) {
    crc = (crc >> 8) ^ <u32>load<u16>(t + (((crc ^ <u32>load<u8>(p)) & 0xff) << 1));
    p++;
  }
  return crc;
}

/** Continues `crc` (start with 0xFFFF) over the first `length` bytes of the I/O region. */
export function crc16(crc: u32, length: i32): u32 {
  return crcUpdate(crc & 0xffff, IO, <usize>length);
}
