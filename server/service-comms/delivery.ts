/** How delivering a frame to a device ended: its answer, or the error code the caller gets. */
export type Delivery = { ok: true; data: number[] } | { ok: false; code: DeliveryFailure };

/** How an SMP exchange with a device ended: its answer message, or why there is none. */
export type SmpDelivery = { ok: true; data: Uint8Array } | { ok: false; code: DeliveryFailure };

/** `device_offline` (409): not connected, or gone mid-command; `device_timeout` (504): no answer in time. */
export type DeliveryFailure = 'device_offline' | 'device_timeout';

type Failed = { ok: false; code: DeliveryFailure };
export const offline: Failed = { ok: false, code: 'device_offline' };
export const timedOut: Failed = { ok: false, code: 'device_timeout' };

/**
 * Commands sent and waiting for their answer, by id. Each ends once: with its answer or a failure
 * (`settle`), or `device_timeout` when its time runs out.
 */
export class AwaitedAnswers {
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (delivery: Delivery) => void; timer: NodeJS.Timeout }
  >();

  /** A new id, and how the command sent under it ends (at the latest after `timeoutMs`). */
  open(timeoutMs: number): { id: number; delivery: Promise<Delivery> } {
    const id = this.nextId++;
    const delivery = new Promise<Delivery>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(timedOut);
      }, timeoutMs);
      this.waiting.set(id, { resolve, timer });
    });
    return { id, delivery };
  }

  /** Ends the command waiting under `id`; an unknown or already ended id is ignored. */
  settle(id: number, delivery: Delivery): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    clearTimeout(waiting.timer);
    waiting.resolve(delivery);
  }

  /** Ends every waiting command the same way (the socket closed, the process stops). */
  settleAll(delivery: Delivery): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, delivery);
  }
}
