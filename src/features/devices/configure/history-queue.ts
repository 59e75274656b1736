import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { ConfigHistoryRecord } from '../../../../contracts/config-history.ts';
import type { HistoryWrite as VerifiedWrite } from '../../../../machines/ble/config-history-machine.ts';

/** A history record waiting to reach the configuration service. */
export interface QueuedRecord {
  serialNumber: string;
  record: ConfigHistoryRecord;
}

interface HistoryDb extends DBSchema {
  outbox: { key: string; value: QueuedRecord & { queuedAt: number }; indexes: { byTime: number } };
}

/** Sends one record; rejects with the HTTP status (0 when nothing answered) in `status`. */
export type SendRecord = (serialNumber: string, record: ConfigHistoryRecord) => Promise<void>;

/**
 * Statuses worth sending again later: nothing answered, not signed in, too many records for now
 * (429), or the server failing.
 */
const retryable = (status: number) =>
  status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;

const statusOf = (error: unknown): number =>
  typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
    ? error.status
    : 0;

/**
 * The configuration history on its way to the service: every verified write is sent at once, and
 * when the service cannot be reached (an installer without signal at the device) the record waits
 * in IndexedDB, survives a reload, and is sent when the app is back online. Records carry their own
 * id, so one sent twice is stored once.
 * @example
 * const queue = new HistoryQueue((serial, record) => configApi(`/fleet/devices/${serial}/config-history`, { method: 'POST', body: record }));
 * await queue.record(write); // 'sent' or 'queued'
 */
export class HistoryQueue {
  private db: Promise<IDBPDatabase<HistoryDb>> | undefined;
  private flushing: Promise<number> | undefined;

  constructor(
    private readonly send: SendRecord,
    private readonly options: { dbName?: string; now?: () => Date; log?: (message: string) => void } = {},
  ) {}

  /** Sends a verified write's record, or queues it when it cannot be sent now. */
  async record(write: VerifiedWrite): Promise<'sent' | 'queued'> {
    const record: ConfigHistoryRecord = {
      id: crypto.randomUUID(),
      writtenAt: (this.options.now?.() ?? new Date()).toISOString(),
      transport: write.transport,
      changes: write.changes,
      ...(write.template ? { template: write.template } : {}),
    };
    const queued = { serialNumber: write.serialNumber, record };
    // Queued first, removed once the service has it: a reload in between loses nothing.
    await this.put(queued);
    return (await this.deliver(queued)) ? 'sent' : 'queued';
  }

  /** Records still waiting, oldest first. */
  async pending(): Promise<QueuedRecord[]> {
    const db = await this.open();
    const rows = await db.getAllFromIndex('outbox', 'byTime');
    return rows.map(({ serialNumber, record }) => ({ serialNumber, record }));
  }

  /** Sends every waiting record in order; resolves with how many are still waiting. */
  flush(): Promise<number> {
    this.flushing ??= this.flushAll().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async flushAll(): Promise<number> {
    let waiting = 0;
    for (const queued of await this.pending()) if (!(await this.deliver(queued))) waiting += 1;
    return waiting;
  }

  /** True when the record left the queue (sent, or refused for good); false when it must wait. */
  private async deliver(queued: QueuedRecord): Promise<boolean> {
    try {
      await this.send(queued.serialNumber, queued.record);
    } catch (error) {
      const status = statusOf(error);
      if (retryable(status)) return false;
      // A refusal (no access to the device, a malformed record) will not change by sending again.
      this.options.log?.(`Configuration history for ${queued.serialNumber} was refused (HTTP ${status})`);
    }
    await (await this.open()).delete('outbox', queued.record.id);
    return true;
  }

  private async put(queued: QueuedRecord): Promise<void> {
    // Sub-millisecond and monotonic: two writes within one millisecond keep their order.
    const queuedAt = performance.timeOrigin + performance.now();
    await (await this.open()).put('outbox', { ...queued, queuedAt }, queued.record.id);
  }

  private open(): Promise<IDBPDatabase<HistoryDb>> {
    this.db ??= openDB<HistoryDb>(this.options.dbName ?? 'fleet-config-history', 1, {
      upgrade(db) {
        db.createObjectStore('outbox').createIndex('byTime', 'queuedAt');
      },
    });
    return this.db;
  }
}

/**
 * Sends the queue now and whenever the browser comes back online; returns the function that stops.
 * @example const stop = syncWhenOnline(queue, window);
 */
export function syncWhenOnline(
  queue: HistoryQueue,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
) {
  const flush = () => {
    void queue.flush();
  };
  target.addEventListener('online', flush);
  flush();
  return () => target.removeEventListener('online', flush);
}
