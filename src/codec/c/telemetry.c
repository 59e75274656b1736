/* The two forms of a telemetry message (telemetry.h). No allocation: the caller gives the room. */
#include "telemetry.h"

#include <stdio.h>

size_t fleet_telemetry_binary(uint32_t seq, const uint8_t *frame, size_t frame_length, uint8_t *out,
                              size_t out_size) {
  if (out_size < FLEET_TELEMETRY_HEADER || frame_length > out_size - FLEET_TELEMETRY_HEADER) return 0;
  out[0] = FLEET_TELEMETRY_KIND;
  out[1] = (uint8_t)(seq >> 24);
  out[2] = (uint8_t)(seq >> 16);
  out[3] = (uint8_t)(seq >> 8);
  out[4] = (uint8_t)seq;
  for (size_t i = 0; i < frame_length; i++) out[FLEET_TELEMETRY_HEADER + i] = frame[i];
  return FLEET_TELEMETRY_HEADER + frame_length;
}

size_t fleet_telemetry_json(uint32_t seq, const uint8_t *frame, size_t frame_length, char *out,
                            size_t out_size) {
  int n = snprintf(out, out_size, "{\"type\":\"telemetry\",\"seq\":%lu,\"data\":[", (unsigned long)seq);
  if (n < 0 || (size_t)n >= out_size) return 0;
  size_t length = (size_t)n;
  for (size_t i = 0; i < frame_length; i++) {
    n = snprintf(out + length, out_size - length, i == 0 ? "%u" : ",%u", (unsigned)frame[i]);
    if (n < 0 || (size_t)n >= out_size - length) return 0;
    length += (size_t)n;
  }
  if (out_size - length < 3) return 0;
  out[length++] = ']';
  out[length++] = '}';
  out[length] = '\0';
  return length;
}
