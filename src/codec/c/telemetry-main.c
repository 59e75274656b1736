/*
 * Builds a device's telemetry message the way firmware would, through build/codec.wasm translated
 * to C by wasm2c: the codec builds the `Read live values` answer frame (opcode 0x83, the payload,
 * zeros, CRC-16/MODBUS), then telemetry.c frames it as JSON text or as the binary message.
 *
 *   wasm2c build/codec.wasm -n codec -o build/codec.c
 *   gcc -O2 -I build -I /usr/share/wabt/wasm2c -o build/codec-telemetry src/codec/c/telemetry-main.c \
 *       src/codec/c/telemetry.c build/codec.c /usr/share/wabt/wasm2c/wasm-rt-impl.c -lm
 *   build/codec-telemetry json 7 255 0102…      # prints {"type":"telemetry","seq":7,"data":[131,1,2,…]}
 *   build/codec-telemetry binary 7 255 0102…    # writes the binary message's bytes to stdout
 *
 * Exit 0 when the message was written, 2 on bad arguments (one line on stderr).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "telemetry.h"

/* The opcode of a `Read live values` answer: the only frame telemetry carries. */
enum { READ_LIVE_VALUES_ANSWER = 0x83, MAX_FRAME = 512 };

static int fail(const char *message) {
  fprintf(stderr, "codec-telemetry: %s\n", message);
  return 2;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int main(int argc, char **argv) {
  if (argc != 5 || (strcmp(argv[1], "json") != 0 && strcmp(argv[1], "binary") != 0))
    return fail("usage: codec-telemetry json|binary <seq> <frame size> <payload hex>");
  char *end;
  unsigned long long seq = strtoull(argv[2], &end, 10);
  if (*end != '\0' || argv[2][0] == '-' || seq > 0xffffffffULL) return fail("seq is a whole number 0–4294967295");
  unsigned long size = strtoul(argv[3], &end, 10);
  if (*end != '\0' || size < 3 || size > MAX_FRAME) return fail("the frame size is 3–512 bytes");
  const char *hex = argv[4];
  size_t payload = strlen(hex) / 2;
  if (strlen(hex) % 2 != 0 || payload > size - 3) return fail("the payload is whole bytes that leave room for the CRC");

  wasm_rt_init();
  Z_codec_init_module();
  Z_codec_instance_t codec;
  Z_codec_instantiate(&codec);
  u8 *memory = Z_codecZ_memory(&codec)->data;
  u8 *io = memory + Z_codecZ_ioPointer(&codec);
  for (size_t i = 0; i < payload; i++) {
    int high = hex_digit(hex[2 * i]), low = hex_digit(hex[2 * i + 1]);
    if (high < 0 || low < 0) return fail("the payload is hex");
    io[1 + i] = (u8)(high * 16 + low);
  }
  if (Z_codecZ_buildFrame(&codec, READ_LIVE_VALUES_ANSWER, (u32)size, (u32)payload) != 0)
    return fail("the codec refused the frame");

  if (strcmp(argv[1], "binary") == 0) {
    uint8_t message[FLEET_TELEMETRY_HEADER + MAX_FRAME];
    size_t length = fleet_telemetry_binary((uint32_t)seq, io, size, message, sizeof message);
    fwrite(message, 1, length, stdout);
  } else {
    char message[64 + 4 * MAX_FRAME];
    if (fleet_telemetry_json((uint32_t)seq, io, size, message, sizeof message) == 0) return fail("no room");
    puts(message);
  }
  Z_codec_free(&codec);
  wasm_rt_free();
  return 0;
}
