/*
 * Checks every test vector of the codec (frames, fields, passwords, SHA-256 and MCUboot images)
 * through build/codec.wasm translated to C by wasm2c,
 * calling the module's raw exports as docs/codec.md describes them: no TypeScript involved.
 *
 *   wasm2c build/codec.wasm -n codec -o build/codec.c
 *   gcc -O2 -I build -I /usr/share/wabt/wasm2c -o build/codec-vectors src/codec/c/vectors.c \
 *       src/codec/c/json.c build/codec.c /usr/share/wabt/wasm2c/wasm-rt-impl.c -lm
 *   build/codec-vectors tests/vectors
 *
 * Prints one line per vector file and a total. Exit 0 when every vector passes, 1 when one fails
 * (each failure is printed), 2 when a file cannot be read.
 */
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "json.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "the harness reads and writes the module's little-endian memory in place"
#endif

/* Data view of a frame that fields are read through, and the characters of a password. */
enum { VIEW_LENGTH = 254, PASSWORD_LENGTH = 16, MAX_BYTES = 65536 };

/* The module's result codes (assembly/errors.ts), by the names the vectors use. */
static const char *const RESULTS[] = {
    "ok",          "invalid-width",     "position-out-of-range", "value-out-of-range", "frame-length",
    "password-too-long", "password-character", "invalid-opcode", "invalid-buffer-size",
    "image-magic", "image-header", "image-size", "tlv-magic", "tlv-length", "tlv-missing",
    "tlv-duplicate", "tlv-place", "tlv-value", "hash-mismatch",
};

static Z_codec_instance_t codec;
static u8 *memory;
static u32 io, io_size, descriptors, values, digest, image_slots;

static int vectors, failures;

static const char *result_name(u32 result) {
  return result < sizeof RESULTS / sizeof *RESULTS ? RESULTS[result] : "unknown result";
}

/* Counts one vector; prints it with what went wrong when `ok` is false. */
static void expect(int ok, const char *file, const char *format, ...) {
  vectors++;
  if (ok) return;
  failures++;
  va_list args;
  va_start(args, format);
  printf("FAIL %s: ", file);
  vprintf(format, args);
  putchar('\n');
  va_end(args);
}

static void store_u32(u32 at, u32 value) { memcpy(memory + at, &value, 4); }
static void store_f64(u32 at, double value) { memcpy(memory + at, &value, 8); }
static double load_f64(u32 at) {
  double value;
  memcpy(&value, memory + at, 8);
  return value;
}

static const char *text(const json *value) {
  return value && value->type == JSON_STRING ? value->string : "";
}
static double number(const json *value) { return value && value->type == JSON_NUMBER ? value->number : NAN; }
/* A whole number from 0 to 2^32 - 1, or `otherwise` (a missing value, a fraction, NaN). */
static u32 whole(const json *value, u32 otherwise) {
  double n = number(value);
  return n >= 0 && n <= 4294967295.0 && n == floor(n) ? (u32)n : otherwise;
}
static size_t count(const json *value) {
  return value && (value->type == JSON_ARRAY || value->type == JSON_OBJECT) ? value->count : 0;
}

/* Bytes of a lower-case hex string; SIZE_MAX when it is not hex. */
static size_t from_hex(const char *hex, u8 *out, size_t max) {
  size_t n = strlen(hex);
  if (n % 2 || n / 2 > max) return SIZE_MAX;
  for (size_t i = 0; i < n / 2; i++) {
    unsigned byte;
    if (sscanf(hex + 2 * i, "%2x", &byte) != 1) return SIZE_MAX;
    out[i] = (u8)byte;
  }
  return n / 2;
}

static void to_hex(const u8 *bytes, size_t n, char *out) {
  for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", bytes[i]);
  out[2 * n] = '\0';
}

/* CRC-16/MODBUS of any number of bytes: fed through the I/O region a region at a time. */
static u32 crc_of(const u8 *bytes, size_t n) {
  u32 crc = 0xffff;
  for (size_t at = 0; at < n; at += io_size) {
    u32 chunk = (u32)(n - at < io_size ? n - at : io_size);
    memcpy(memory + io, bytes + at, chunk);
    crc = Z_codecZ_crc16(&codec, crc, chunk);
  }
  return crc;
}

/* What is wrong with a received frame (a result name), or NULL: its length, then its CRC. */
static const char *verify(const u8 *frame, size_t n, long expected_size) {
  if ((expected_size >= 0 && n != (size_t)expected_size) || n < 3) return "frame-length";
  u32 carried = frame[n - 2] | (u32)frame[n - 1] << 8;
  return carried == crc_of(frame, n - 2) ? NULL : "crc-mismatch";
}

/* A buffer descriptor packed into the module's u32: bits 0-15 position, 16-23 width, bit 24
 * signed, bit 25 little-endian. Impossible positions and widths are packed so the module rejects
 * them: position 0xFFFF, width 0. */
static u32 pack(const json *buffer) {
  double position = number(json_get(buffer, "position"));
  double width = number(json_get(buffer, "length"));
  u32 p = position >= 0 && position < 0xffff && position == floor(position) ? (u32)position : 0xffff;
  u32 w = width == 8 || width == 16 || width == 32 ? (u32)width : 0;
  const json *is_signed = json_get(buffer, "signed"), *little = json_get(buffer, "littleEndian");
  return p | w << 16 | (is_signed && is_signed->type == JSON_TRUE) << 24 |
         (u32)(little && little->type == JSON_TRUE) << 25;
}

static void check_crc(const json *root) {
  static u8 input[MAX_BYTES];
  for (size_t i = 0; i < count(root); i++) {
    const json *v = &root->items[i];
    size_t n = from_hex(text(json_get(v, "input")), input, sizeof input);
    u32 crc = n == SIZE_MAX ? 0 : crc_of(input, n);
    char got[5], wire[5];
    snprintf(got, sizeof got, "%04x", crc);
    snprintf(wire, sizeof wire, "%02x%02x", crc & 0xff, (crc >> 8) & 0xff);
    expect(n != SIZE_MAX && strcmp(got, text(json_get(v, "crc"))) == 0 &&
               strcmp(wire, text(json_get(v, "wire"))) == 0,
           "crc.json", "%s: CRC %s (wire %s), expected %s", text(json_get(v, "name")), got, wire,
           text(json_get(v, "crc")));
  }
}

static void check_frames(const json *root) {
  static u8 payload[MAX_BYTES], frame[MAX_BYTES];
  static char got[2 * MAX_BYTES + 1];
  const json *built = json_get(root, "built"), *rejected = json_get(root, "rejected");
  for (size_t i = 0; i < count(built); i++) {
    const json *v = &built->items[i];
    size_t n = from_hex(text(json_get(v, "payload")), payload, sizeof payload - 1);
    size_t frame_length = from_hex(text(json_get(v, "frame")), frame, sizeof frame);
    u32 size = whole(json_get(v, "size"), UINT32_MAX);
    if (n == SIZE_MAX || frame_length == SIZE_MAX || size > io_size) {
      expect(0, "frames.json", "%s: unreadable vector", text(json_get(v, "name")));
      continue;
    }
    memcpy(memory + io + 1, payload, n);
    u32 result = Z_codecZ_buildFrame(&codec, whole(json_get(v, "opcode"), UINT32_MAX), size, (u32)n);
    to_hex(memory + io, result == 0 ? size : 0, got);
    const char *problem = verify(frame, frame_length, size);
    expect(result == 0 && strcmp(got, text(json_get(v, "frame"))) == 0 && !problem, "frames.json",
           "%s: buildFrame gave %s and %s, verify %s", text(json_get(v, "name")), result_name(result), got,
           problem ? problem : "ok");
  }
  for (size_t i = 0; i < count(rejected); i++) {
    const json *v = &rejected->items[i];
    const json *size = json_get(v, "expectedSize");
    size_t n = from_hex(text(json_get(v, "frame")), frame, sizeof frame);
    long expected_size = size && size->type == JSON_NUMBER ? (long)whole(size, 0) : -1;
    const char *problem = n == SIZE_MAX ? "unreadable" : verify(frame, n, expected_size);
    expect(problem && strcmp(problem, text(json_get(v, "error"))) == 0, "frames.json",
           "%s: verify gave %s, expected %s", text(json_get(v, "name")), problem ? problem : "ok",
           text(json_get(v, "error")));
  }
}

static void check_fields(const json *root) {
  const json *valid = json_get(root, "valid"), *rejected = json_get(root, "rejected");
  for (size_t i = 0; i < count(valid); i++) {
    const json *v = &valid->items[i];
    const json *buffer = json_get(v, "buffer");
    double value = number(json_get(v, "value"));
    u32 position = whole(json_get(buffer, "position"), VIEW_LENGTH);
    u32 width = whole(json_get(buffer, "length"), 0) / 8;
    char got[9] = "";
    memset(memory + io, 0, VIEW_LENGTH);
    store_u32(descriptors, pack(buffer));
    store_f64(values, value);
    u32 encoded = Z_codecZ_encodeFields(&codec, 1, VIEW_LENGTH, 1);
    if (encoded == 0 && position + width <= VIEW_LENGTH && width <= 4) to_hex(memory + io + position, width, got);
    store_f64(values, NAN);
    u32 decoded = Z_codecZ_decodeFields(&codec, 1, VIEW_LENGTH);
    double back = load_f64(values);
    expect(encoded == 0 && decoded == 0 && strcmp(got, text(json_get(v, "bytes"))) == 0 && back == value,
           "fields.json", "valid %zu: %.17g encoded %s as %s (expected %s), decoded %s as %.17g", i, value,
           result_name(encoded), got, text(json_get(v, "bytes")), result_name(decoded), back);
  }
  for (size_t i = 0; i < count(rejected); i++) {
    const json *v = &rejected->items[i];
    store_u32(descriptors, pack(json_get(v, "buffer")));
    store_f64(values, number(json_get(v, "value")));
    u32 result = Z_codecZ_encodeFields(&codec, 1, VIEW_LENGTH, 1);
    u32 index = Z_codecZ_errorIndex(&codec);
    expect(strcmp(result_name(result), text(json_get(v, "error"))) == 0 && index == 0, "fields.json",
           "rejected %zu: encodeFields gave %s at %d, expected %s at 0", i, result_name(result), (int)index,
           text(json_get(v, "error")));
  }
}

/* Code points of UTF-8 text; returns how many there are, storing at most `max`. */
static size_t code_points(const char *s, u32 *out, size_t max) {
  size_t n = 0;
  for (const u8 *p = (const u8 *)s; *p; n++) {
    int extra = *p >= 0xf0 ? 3 : *p >= 0xe0 ? 2 : *p >= 0xc0 ? 1 : 0;
    u32 cp = *p++ & (0x7f >> extra);
    for (int k = 0; k < extra && (*p & 0xc0) == 0x80; k++) cp = cp << 6 | (*p++ & 0x3f);
    if (n < max) out[n] = cp;
  }
  return n;
}

static void check_passwords(const json *root) {
  const json *valid = json_get(root, "valid"), *rejected = json_get(root, "rejected");
  const json *lists[] = {valid, rejected};
  for (int list = 0; list < 2; list++) {
    for (size_t i = 0; i < count(lists[list]); i++) {
      const json *v = &lists[list]->items[i];
      const char *password = text(json_get(v, "password"));
      u32 codes[PASSWORD_LENGTH];
      size_t n = code_points(password, codes, PASSWORD_LENGTH);
      /* The module reads the characters as u32 codes from the start of the region. */
      for (size_t k = 0; k < n && k < PASSWORD_LENGTH; k++) store_u32(io + 4 * (u32)k, codes[k]);
      u32 result = Z_codecZ_passwordCodes(&codec, (u32)n);
      if (list == 0) {
        const json *want = json_get(v, "codes");
        int same = result == 0 && count(want) == PASSWORD_LENGTH;
        for (size_t k = 0; same && k < PASSWORD_LENGTH; k++) same = memory[io + k] == number(&want->items[k]);
        expect(same, "passwords.json", "\"%s\": passwordCodes gave %s or other codes", password,
               result_name(result));
      } else {
        size_t first_wide = 0;
        while (first_wide < n && first_wide < PASSWORD_LENGTH && codes[first_wide] <= 255) first_wide++;
        const char *error = text(json_get(v, "error"));
        int at_right_place = result != 6 || Z_codecZ_errorIndex(&codec) == first_wide;
        expect(strcmp(result_name(result), error) == 0 && at_right_place, "passwords.json",
               "\"%s\": passwordCodes gave %s, expected %s", password, result_name(result), error);
      }
    }
  }
}

/* SHA-256 of `n` bytes through the module, fed a region at a time; the digest is at `digest`. */
static void sha256_of(const u8 *bytes, size_t n) {
  Z_codecZ_sha256Begin(&codec);
  for (size_t at = 0; at < n; at += io_size) {
    u32 chunk = (u32)(n - at < io_size ? n - at : io_size);
    memcpy(memory + io, bytes + at, chunk);
    Z_codecZ_sha256Update(&codec, chunk);
  }
  Z_codecZ_sha256End(&codec);
}

static u32 slot(u32 index) {
  u32 value;
  memcpy(&value, memory + image_slots + 4 * index, 4);
  return value;
}

/*
 * Reads an MCUboot image as docs/codec.md describes it: the header, the hash of the header,
 * payload and protected TLVs, then the TLV area. Answers a result name ("ok" when it is good).
 */
static const char *read_image(const u8 *bytes, size_t n) {
  if (n < 32) return "image-size";
  memcpy(memory + io, bytes, 32);
  u32 result = Z_codecZ_imageHeader(&codec);
  if (result) return result_name(result);
  uint64_t payload_end = (uint64_t)slot(0) + slot(2), protected_size = slot(1);
  uint64_t hashed_end = payload_end + protected_size;
  if (n < hashed_end + 4 || n - payload_end > io_size) return "image-size";
  sha256_of(bytes, (size_t)hashed_end);
  memcpy(memory + io, bytes + payload_end, n - payload_end);
  return result_name(Z_codecZ_imageTlvs(&codec, (u32)protected_size, (u32)(n - payload_end)));
}

static void check_firmware(const json *root) {
  static u8 input[1 << 20];
  static char got[65];
  const json *sha = json_get(root, "sha256"), *images = json_get(root, "images");
  for (size_t i = 0; i < count(sha); i++) {
    const json *v = &sha->items[i];
    size_t part = from_hex(text(json_get(v, "input")), input, sizeof input);
    u32 repeat = whole(json_get(v, "repeat"), 0);
    size_t n = part == SIZE_MAX || repeat == 0 || part * repeat > sizeof input ? SIZE_MAX : part * repeat;
    if (n != SIZE_MAX)
      for (u32 k = 1; k < repeat; k++) memcpy(input + k * part, input, part);
    if (n != SIZE_MAX) sha256_of(input, n);
    to_hex(memory + digest, n == SIZE_MAX ? 0 : 32, got);
    expect(n != SIZE_MAX && strcmp(got, text(json_get(v, "digest"))) == 0, "firmware.json",
           "SHA-256 of %s: %s, expected %s", text(json_get(v, "name")), got, text(json_get(v, "digest")));
  }
  const json *valid = json_get(images, "valid"), *rejected = json_get(images, "rejected");
  for (size_t i = 0; i < count(valid); i++) {
    const json *v = &valid->items[i];
    size_t n = from_hex(text(json_get(v, "image")), input, sizeof input);
    const char *problem = n == SIZE_MAX ? "unreadable" : read_image(input, n);
    char version[48] = "";
    if (strcmp(problem, "ok") == 0) {
      snprintf(version, sizeof version, slot(7) ? "%u.%u.%u+%u" : "%u.%u.%u", slot(4), slot(5), slot(6), slot(7));
      to_hex(memory + digest, 32, got);
    }
    char model[65] = "";
    u32 model_length = strcmp(problem, "ok") == 0 && slot(13) < sizeof model ? slot(13) : 0;
    if (model_length) memcpy(model, memory + io + slot(12), model_length);
    expect(strcmp(problem, "ok") == 0 && strcmp(version, text(json_get(v, "version"))) == 0 &&
               strcmp(model, text(json_get(v, "modelId"))) == 0 && strcmp(got, text(json_get(v, "sha256"))) == 0,
           "firmware.json", "image %s: %s, %s %s", text(json_get(v, "name")), problem, model, version);
  }
  for (size_t i = 0; i < count(rejected); i++) {
    const json *v = &rejected->items[i];
    size_t n = from_hex(text(json_get(v, "image")), input, sizeof input);
    const char *problem = n == SIZE_MAX ? "unreadable" : read_image(input, n);
    expect(strcmp(problem, text(json_get(v, "error"))) == 0, "firmware.json", "image %s: %s, expected %s",
           text(json_get(v, "name")), problem, text(json_get(v, "error")));
  }
}

static char *read_text(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  /* A folder opens too, with a size no file has: vector files are far below 64 MiB. */
  char *data = size >= 0 && size < (1L << 26) ? malloc((size_t)size + 1) : NULL;
  if (data && fread(data, 1, (size_t)size, f) == (size_t)size) {
    data[size] = '\0';
  } else {
    free(data);
    data = NULL;
  }
  fclose(f);
  return data;
}

/* A vector file as a tree; exits 2 naming the file when it cannot be read or is not JSON. */
static json *read_json(const char *dir, const char *name) {
  char error[200];
  char *data = read_text(dir, name);
  if (!data) {
    fprintf(stderr, "codec-vectors: cannot read %s/%s\n", dir, name);
    exit(2);
  }
  json *root = json_parse(data, error, sizeof error);
  free(data);
  if (!root) {
    fprintf(stderr, "codec-vectors: %s/%s is not JSON: %s\n", dir, name, error);
    exit(2);
  }
  return root;
}

/* The command line's example: descriptors.json and values.json encoded into cli-example.json's
 * frame (values divided by their multiplier and rounded, then the CRC sealed), and decoded back. */
static void check_cli_example(const json *example, const char *dir) {
  enum { MAX_ITEMS = 64 };
  static char got[2 * MAX_BYTES + 1];
  json *items = read_json(dir, text(json_get(example, "descriptors")));
  json *display = read_json(dir, text(json_get(example, "values")));
  const json *decoded = json_get(example, "decoded");
  const char *frame = text(json_get(example, "frame"));
  u32 n = (u32)count(items), size = whole(json_get(example, "size"), 0);
  if (n > MAX_ITEMS || size < VIEW_LENGTH || size > io_size || strlen(frame) != 2 * size) {
    expect(0, "cli-example.json", "unusable example: %u items, size %u", n, size);
    json_free(items);
    json_free(display);
    return;
  }
  double multipliers[MAX_ITEMS];
  for (u32 i = 0; i < n; i++) {
    const json *multiplier = json_get(&items->items[i], "multiplier");
    multipliers[i] = multiplier ? number(multiplier) : 1;
  }

  u32 result = Z_codecZ_buildFrame(&codec, whole(json_get(example, "opcode"), UINT32_MAX), size, 0);
  for (u32 i = 0; i < n; i++) {
    const json *item = &items->items[i];
    double value = number(json_get(display, text(json_get(item, "name"))));
    store_u32(descriptors + 4 * i, pack(json_get(item, "buffer")));
    store_f64(values + 8 * i, floor(value / multipliers[i] + 0.5)); /* Math.round: halves round up */
  }
  if (result == 0) result = Z_codecZ_encodeFields(&codec, n, VIEW_LENGTH, 1);
  u32 crc = Z_codecZ_crc16(&codec, 0xffff, size - 2);
  memory[io + size - 2] = (u8)crc;
  memory[io + size - 1] = (u8)(crc >> 8);
  to_hex(memory + io, size, got);
  expect(result == 0 && strcmp(got, frame) == 0, "cli-example.json", "encode gave %s and %s",
         result_name(result), got);

  from_hex(frame, memory + io, size);
  result = Z_codecZ_decodeFields(&codec, n, VIEW_LENGTH);
  int same = result == 0 && count(decoded) == n;
  for (u32 i = 0; same && i < n; i++) {
    /* Display values lie on the multiplier's grid: within half a step is the same value. */
    double want = number(json_get(decoded, text(json_get(&items->items[i], "name"))));
    same = fabs(load_f64(values + 8 * i) * multipliers[i] - want) < multipliers[i] / 2;
  }
  expect(same, "cli-example.json", "decode gave %s or other values", result_name(result));
  json_free(items);
  json_free(display);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <vectors folder>\n", argv[0]);
    return 2;
  }
  const char *dir = argv[1];
  wasm_rt_init();
  Z_codec_init_module();
  Z_codec_instantiate(&codec);
  memory = Z_codecZ_memory(&codec)->data;
  io = Z_codecZ_ioPointer(&codec);
  io_size = Z_codecZ_ioSize(&codec);
  descriptors = Z_codecZ_descriptorPointer(&codec);
  values = Z_codecZ_valuePointer(&codec);
  digest = Z_codecZ_digestPointer(&codec);
  image_slots = Z_codecZ_imagePointer(&codec);

  struct {
    const char *file, *with;
    void (*check)(const json *);
  } files[] = {
      {"crc.json", "", check_crc},
      {"frames.json", "", check_frames},
      {"fields.json", "", check_fields},
      {"passwords.json", "", check_passwords},
      {"firmware.json", "", check_firmware},
      {"cli-example.json", " (with descriptors.json and values.json)", NULL},
  };
  int total = 0, total_failures = 0;
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    json *root = read_json(dir, files[f].file);
    vectors = failures = 0;
    if (files[f].check) files[f].check(root);
    else check_cli_example(root, dir);
    json_free(root);
    printf("%s%s: %d vectors, %d failed\n", files[f].file, files[f].with, vectors, failures);
    total += vectors;
    total_failures += failures;
  }
  printf("%d vectors, %d failed\n", total, total_failures);
  Z_codec_free(&codec);
  wasm_rt_free();
  return total_failures ? 1 : 0;
}
