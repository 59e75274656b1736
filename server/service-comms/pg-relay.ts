import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { notePayload, PgListener } from '../db/pg-listener.ts';
import type { Database } from '../db/schema.ts';
import { AwaitedAnswers, type Delivery, timedOut } from './delivery.ts';

const hexFrame = z.string().regex(/^([0-9a-f]{2}){1,512}$/);
const relayMessageSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('cmd'),
    id: z.number().int(),
    from: z.string(),
    serial: z.string(),
    data: hexFrame,
  }),
  z.object({ t: z.literal('ans'), id: z.number().int(), data: hexFrame }),
  z.object({ t: z.literal('err'), id: z.number().int(), code: z.enum(['device_offline', 'device_timeout']) }),
  z.object({ t: z.literal('drop'), serial: z.string() }),
]);
type RelayMessage = z.infer<typeof relayMessageSchema>;

const toHex = (data: number[]) => Buffer.from(data).toString('hex');
const fromHex = (hex: string) => [...Buffer.from(hex, 'hex')];

/** The NOTIFY channel of a server process. */
export function relayChannel(holder: string): string {
  return `service_comms_${holder}`;
}

/**
 * Commands between server processes through PostgreSQL: a process that receives a command for a
 * device whose socket another process holds NOTIFYs that process's channel, and the holder NOTIFYs
 * the answer back. Nothing crosses process memory. The payload is the frame in hex (at most
 * 1 KiB of text, far under NOTIFY's 8000 bytes).
 */
export class PgRelay {
  private readonly listener: PgListener;
  private readonly answers = new AwaitedAnswers();

  constructor(
    url: string,
    private readonly db: Kysely<Database>,
    private readonly holder: string,
    /** Deliver a command for a device this process holds. */
    private readonly deliverHere: (serial: string, data: number[]) => Promise<Delivery>,
    /** Close the socket of a device this process holds (its secret was replaced). */
    private readonly dropHere: (serial: string) => void,
  ) {
    this.listener = new PgListener({
      url,
      channels: [relayChannel(holder)],
      label: 'service-comms relay',
      onNote: (_channel, payload) => this.onNotification(payload),
      onListening: () => {},
    });
  }

  /** Ask the process holding a device to close its socket. */
  async drop(holder: string, serial: string): Promise<void> {
    await this.notify(holder, { t: 'drop', serial });
  }

  /** Start listening on this process's channel; reconnects after a lost connection. */
  async start(): Promise<void> {
    await this.listener.start();
  }

  /** Send a command to the process holding the device and wait for its answer (or time out). */
  request(holder: string, serial: string, data: number[], timeoutMs: number): Promise<Delivery> {
    const { id, delivery } = this.answers.open(timeoutMs);
    this.notify(holder, { t: 'cmd', id, from: this.holder, serial, data: toHex(data) }).catch(
      (error: unknown) => {
        console.error('[service-comms] relay notify failed:', (error as Error).message);
      },
    );
    return delivery;
  }

  private async notify(holder: string, message: RelayMessage): Promise<void> {
    await sql`SELECT pg_notify(${relayChannel(holder)}, ${JSON.stringify(message)})`.execute(this.db);
  }

  private onNotification(payload: string | undefined): void {
    const m = notePayload(relayMessageSchema, payload);
    if (!m) {
      console.warn('[service-comms] ignored a relay message of the wrong shape');
      return;
    }
    if (m.t === 'drop') {
      this.dropHere(m.serial);
      return;
    }
    if (m.t === 'cmd') {
      this.deliverHere(m.serial, fromHex(m.data))
        .then((delivery) =>
          this.notify(
            m.from,
            delivery.ok
              ? { t: 'ans', id: m.id, data: toHex(delivery.data) }
              : { t: 'err', id: m.id, code: delivery.code },
          ),
        )
        .catch((error: unknown) => console.error('[service-comms] relay answer failed:', error));
      return;
    }
    this.answers.settle(
      m.id,
      m.t === 'ans' ? { ok: true, data: fromHex(m.data) } : { ok: false, code: m.code },
    );
  }

  async close(): Promise<void> {
    this.answers.settleAll(timedOut);
    await this.listener.close();
  }
}
