import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { z } from 'zod';
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
  private listener: pg.Client | undefined;
  private readonly answers = new AwaitedAnswers();
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly db: Kysely<Database>,
    private readonly holder: string,
    /** Deliver a command for a device this process holds. */
    private readonly deliverHere: (serial: string, data: number[]) => Promise<Delivery>,
    /** Close the socket of a device this process holds (its secret was replaced). */
    private readonly dropHere: (serial: string) => void,
  ) {}

  /** Ask the process holding a device to close its socket. */
  async drop(holder: string, serial: string): Promise<void> {
    await this.notify(holder, { t: 'drop', serial });
  }

  /** Start listening on this process's channel; reconnects after a lost connection. */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (note) => this.onNotification(note.payload));
    client.on('error', (error) => {
      console.error('[service-comms] relay connection lost:', error.message);
      this.restartSoon();
    });
    await client.connect();
    await client.query(`LISTEN ${relayChannel(this.holder)}`);
    this.listener = client;
  }

  private restartSoon(): void {
    if (this.stopped || this.retry) return;
    const old = this.listener;
    this.listener = undefined;
    old?.end().catch(() => {});
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start().catch((error: unknown) => {
        console.error('[service-comms] relay reconnect failed:', (error as Error).message);
        this.restartSoon();
      });
    }, 1000);
    this.retry.unref();
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
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload ?? '');
    } catch {
      parsed = undefined;
    }
    const message = relayMessageSchema.safeParse(parsed);
    if (!message.success) {
      console.warn('[service-comms] ignored a relay message of the wrong shape');
      return;
    }
    const m = message.data;
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
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.answers.settleAll(timedOut);
    await this.listener?.end().catch(() => {});
    this.listener = undefined;
  }
}
