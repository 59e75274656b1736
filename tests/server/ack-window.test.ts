import { describe, expect, it } from 'vitest';
import { AckWindow } from '../../server/service-comms/ack-window.ts';

describe("a device socket's acknowledgements", () => {
  it('never covers a message still waiting, however many after it are stored', () => {
    const sent: number[] = [];
    const window = new AckWindow((seq) => sent.push(seq));
    const [first, second, third] = [window.receive(1), window.receive(2), window.receive(3)];
    second?.settle();
    third?.settle();
    third?.flush();
    expect(sent).toEqual([]);
    first?.settle();
    first?.flush();
    second?.flush();
    expect(sent).toEqual([3]);
    expect(window.waiting).toBe(0);
  });

  it('answers the highest seq dealt with, once per move', () => {
    const sent: number[] = [];
    const window = new AckWindow((seq) => sent.push(seq));
    for (const seq of [7, 8]) {
      const receipt = window.receive(seq);
      receipt.settle();
      receipt.flush();
      receipt.flush();
    }
    // A resend of something older on the same socket moves nothing.
    const old = window.receive(5);
    old.settle();
    old.flush();
    expect(sent).toEqual([7, 8]);
  });
});
