/*
 * A device's telemetry message for the configuration service's device socket, in either form
 * (docs/api.md, "Telemetry on the device socket"): JSON text, or the binary message of a 5-byte
 * header and the frame. The frame itself is the `Read live values` answer the codec builds.
 */
#ifndef FLEET_TELEMETRY_H
#define FLEET_TELEMETRY_H

#include <stddef.h>
#include <stdint.h>

/* Byte 0 of a binary telemetry message, and the bytes before the frame. */
enum { FLEET_TELEMETRY_KIND = 0x01, FLEET_TELEMETRY_HEADER = 5 };

/*
 * The binary message into `out`: 0x01, `seq` as 4 bytes big-endian, then the frame. Answers the
 * bytes written, or 0 when `out` is too small.
 */
size_t fleet_telemetry_binary(uint32_t seq, const uint8_t *frame, size_t frame_length, uint8_t *out,
                              size_t out_size);

/*
 * The JSON message into `out`, NUL-terminated: {"type":"telemetry","seq":N,"data":[…]}. Answers
 * its length without the NUL, or 0 when `out` is too small.
 */
size_t fleet_telemetry_json(uint32_t seq, const uint8_t *frame, size_t frame_length, char *out,
                            size_t out_size);

#endif
