import { E_BUFFER_SIZE, E_OK, fail } from './errors';
import { DIGEST, IO, IO_SIZE, SHA_STATE } from './layout';

// SHA-256 (FIPS 180-4). The state lives in one static region so that a host can save it and
// restore it between calls, hashing several streams in turn with one instance.

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
const K: usize = memory.data<u32>([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
/** The message schedule of the block being compressed. */
const W: usize = memory.data(64 << 2, 16);

// Offsets in the state region.
const BLOCK: usize = 32;
const COUNT: usize = 96;
const FILLED: usize = 104;

function compress(block: usize): void {
  for (let i: usize = 0; i < 16; i++) store<u32>(W + (i << 2), bswap<u32>(load<u32>(block + (i << 2))));
  for (let i: usize = 16; i < 64; i++) {
    const w15 = load<u32>(W + ((i - 15) << 2));
    const w2 = load<u32>(W + ((i - 2) << 2));
    const s0 = rotr<u32>(w15, 7) ^ rotr<u32>(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr<u32>(w2, 17) ^ rotr<u32>(w2, 19) ^ (w2 >>> 10);
    store<u32>(W + (i << 2), load<u32>(W + ((i - 16) << 2)) + s0 + load<u32>(W + ((i - 7) << 2)) + s1);
  }
  const s = SHA_STATE;
  let a = load<u32>(s, 0);
  let b = load<u32>(s, 4);
  let c = load<u32>(s, 8);
  let d = load<u32>(s, 12);
  let e = load<u32>(s, 16);
  let f = load<u32>(s, 20);
  let g = load<u32>(s, 24);
  let h = load<u32>(s, 28);
  for (let i: usize = 0; i < 64; i++) {
    const s1 = rotr<u32>(e, 6) ^ rotr<u32>(e, 11) ^ rotr<u32>(e, 25);
    const t1 = h + s1 + ((e & f) ^ (~e & g)) + load<u32>(K + (i << 2)) + load<u32>(W + (i << 2));
    const s0 = rotr<u32>(a, 2) ^ rotr<u32>(a, 13) ^ rotr<u32>(a, 22);
    const t2 = s0 + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  store<u32>(s, load<u32>(s, 0) + a, 0);
  store<u32>(s, load<u32>(s, 4) + b, 4);
  store<u32>(s, load<u32>(s, 8) + c, 8);
  store<u32>(s, load<u32>(s, 12) + d, 12);
  store<u32>(s, load<u32>(s, 16) + e, 16);
  store<u32>(s, load<u32>(s, 20) + f, 20);
  store<u32>(s, load<u32>(s, 24) + g, 24);
  store<u32>(s, load<u32>(s, 28) + h, 28);
}

/** Starts a new digest: the initial hash values, nothing counted. */
export function sha256Begin(): void {
  const s = SHA_STATE;
  store<u32>(s, 0x6a09e667, 0);
  store<u32>(s, 0xbb67ae85, 4);
  store<u32>(s, 0x3c6ef372, 8);
  store<u32>(s, 0xa54ff53a, 12);
  store<u32>(s, 0x510e527f, 16);
  store<u32>(s, 0x9b05688c, 20);
  store<u32>(s, 0x1f83d9ab, 24);
  store<u32>(s, 0x5be0cd19, 28);
  store<u64>(s + COUNT, 0);
  store<u32>(s + FILLED, 0);
}

/** Adds `length` bytes at `ptr` to the digest under way. */
export function sha256Feed(ptr: usize, length: usize): void {
  const s = SHA_STATE;
  store<u64>(s + COUNT, load<u64>(s + COUNT) + <u64>length);
  let filled = <usize>load<u32>(s + FILLED);
  let p = ptr;
  const end = ptr + length;
  if (filled > 0) {
    const take = min<usize>(64 - filled, length);
    memory.copy(s + BLOCK + filled, p, take);
    filled += take;
    p += take;
    if (filled < 64) {
      store<u32>(s + FILLED, <u32>filled);
      return;
    }
    compress(s + BLOCK);
    filled = 0;
  }
  // Whole blocks straight from the input; only a tail is copied into the state.
  while (p + 64 <= end) {
    compress(p);
    p += 64;
  }
  memory.copy(s + BLOCK, p, end - p);
  store<u32>(s + FILLED, <u32>(end - p));
}

/** Adds the first `length` bytes of the I/O region to the digest under way. */
export function sha256Update(length: i32): i32 {
  if (length < 0 || length > IO_SIZE) return fail(E_BUFFER_SIZE, -1);
  sha256Feed(IO, <usize>length);
  return E_OK;
}

/** Pads, compresses the last block(s) and writes the 32-byte digest to the digest region. */
export function sha256End(): void {
  const s = SHA_STATE;
  const bits = load<u64>(s + COUNT) << 3;
  let filled = <usize>load<u32>(s + FILLED);
  store<u8>(s + BLOCK + filled, 0x80);
  filled++;
  if (filled > 56) {
    memory.fill(s + BLOCK + filled, 0, 64 - filled);
    compress(s + BLOCK);
    filled = 0;
  }
  memory.fill(s + BLOCK + filled, 0, 56 - filled);
  store<u64>(s + BLOCK + 56, bswap<u64>(bits));
  compress(s + BLOCK);
  for (let i: usize = 0; i < 8; i++) store<u32>(DIGEST + (i << 2), bswap<u32>(load<u32>(s + (i << 2))));
}
