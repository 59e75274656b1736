import { describe, expect, it } from 'vitest';
import { readTelemetryMessage, telemetryMessage } from '../../src/codec/telemetry-message.ts';

describe('the binary telemetry message', () => {
  it('is the kind byte 0x01, seq as 4 bytes big-endian, then the frame', () => {
    const frame = Uint8Array.from([0x83, 0x01, 0x02, 0xaa, 0xbb]);
    expect([...telemetryMessage(0x01020304, frame)]).toEqual([
      0x01, 0x01, 0x02, 0x03, 0x04, 0x83, 0x01, 0x02, 0xaa, 0xbb,
    ]);
    expect(readTelemetryMessage(telemetryMessage(0xffffffff, frame))).toEqual({ seq: 0xffffffff, frame });
  });

  it('reads from a view inside a larger buffer', () => {
    const whole = Uint8Array.from([9, 9, 0x01, 0, 0, 0, 42, 0x83, 7]);
    expect(readTelemetryMessage(whole.subarray(2))).toEqual({ seq: 42, frame: Uint8Array.from([0x83, 7]) });
  });

  it('is not read from another kind or a short message, and refuses a seq out of range', () => {
    expect(readTelemetryMessage(Uint8Array.from([0x02, 0, 0, 0, 1, 0x83]))).toBeUndefined();
    expect(readTelemetryMessage(Uint8Array.from([0x01, 0, 0, 0]))).toBeUndefined();
    expect(() => telemetryMessage(-1, new Uint8Array(3))).toThrow(RangeError);
    expect(() => telemetryMessage(2 ** 32, new Uint8Array(3))).toThrow(RangeError);
    expect(() => telemetryMessage(1.5, new Uint8Array(3))).toThrow(RangeError);
  });
});
