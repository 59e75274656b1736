import { describe, expect, it } from 'vitest';
import { TelemetryBacklog } from '../../src/device-sim/online/telemetry-backlog.ts';

const frame = (n: number) => Uint8Array.from([0x83, n]);

describe("a device's telemetry backlog", () => {
  it('numbers readings as they are taken and hands them out oldest first, once per connection', () => {
    const backlog = new TelemetryBacklog(10, 40);
    for (let n = 0; n < 3; n++) backlog.take(frame(n), n);
    expect([backlog.next()?.seq, backlog.next()?.seq, backlog.next()?.seq, backlog.next()]).toEqual([
      40,
      41,
      42,
      undefined,
    ]);
    backlog.rewind();
    expect(backlog.next()?.seq).toBe(40);
  });

  it('forgets what an acknowledgement covers, and keeps sending where it was', () => {
    const backlog = new TelemetryBacklog(10);
    for (let n = 0; n < 4; n++) backlog.take(frame(n), n);
    backlog.next();
    backlog.next();
    expect(backlog.acknowledge(0).map((r) => r.seq)).toEqual([0]);
    expect(backlog.next()?.seq).toBe(2);
    expect(backlog.acknowledge(2).map((r) => r.seq)).toEqual([1, 2]);
    expect(backlog.size).toBe(1);
    expect(backlog.next()?.seq).toBe(3);
  });

  it('keeps at most its capacity, dropping the oldest first and counting them', () => {
    const backlog = new TelemetryBacklog(3);
    for (let n = 0; n < 5; n++) backlog.take(frame(n), n);
    expect(backlog.dropped).toBe(2);
    expect([backlog.next()?.seq, backlog.next()?.seq, backlog.next()?.seq]).toEqual([2, 3, 4]);
    backlog.resize(1);
    expect(backlog.dropped).toBe(4);
    backlog.rewind();
    expect(backlog.next()?.frame).toEqual(frame(4));
  });
});
