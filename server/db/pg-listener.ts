import pg from 'pg';
import type { z } from 'zod';

/**
 * A PostgreSQL connection of its own that LISTENs on `channels` and hands each notification to
 * `onNote`. Lost, it connects again a second later (and again, until it can); each time it listens
 * anew, `onListening` runs, for whatever was notified while no one listened. `start()` throws when
 * the first connection fails.
 */
export class PgListener {
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly options: {
      url: string;
      channels: readonly string[];
      /** Names the listener in the log: `[label] listener connection lost: …`. */
      label: string;
      onNote: (channel: string, payload: string | undefined) => void;
      onListening: () => void;
    },
  ) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const { url, channels, label, onNote, onListening } = this.options;
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (note) => onNote(note.channel, note.payload));
    client.on('error', (error) => {
      console.error(`[${label}] listener connection lost:`, error.message);
      this.restartSoon();
    });
    await client.connect();
    for (const channel of channels) await client.query(`LISTEN ${channel}`);
    this.client = client;
    onListening();
  }

  private restartSoon(): void {
    if (this.stopped || this.retry) return;
    this.client?.end().catch(() => {});
    this.client = undefined;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start().catch((error: unknown) => {
        console.error(`[${this.options.label}] listener reconnect failed:`, (error as Error).message);
        this.restartSoon();
      });
    }, 1000);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
    this.client = undefined;
  }
}

/** A notification's JSON payload as `schema` reads it; undefined for anything else (or none). */
export function notePayload<T>(schema: z.ZodType<T>, payload: string | null | undefined): T | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload ?? '');
  } catch {
    return undefined;
  }
  const read = schema.safeParse(parsed);
  return read.success ? read.data : undefined;
}
