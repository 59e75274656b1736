import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DAY_MS } from './time-buckets.ts';

/** 5-minute and hourly rollups are kept this many days (whole months are dropped once past it). */
export const ROLLUP_5M_DAYS = 400;
/** Raw partitions are made this many days ahead, so a day's first reading never waits for one. */
const DAYS_AHEAD = 2;
const PARTITION_LOCK = 7_261_010;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const compact = (day: string) => day.replaceAll('-', '');

/** The raw partition of a UTC day: `telemetry_raw_p20260304` holds 2026-03-04T00:00Z up to the next day. */
export function rawPartitionName(ms: number): string {
  return `telemetry_raw_p${compact(utcDay(ms))}`;
}

function monthStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function nextMonth(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

async function existing(db: Kysely<Database>, parent: string): Promise<Set<string>> {
  const rows = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    WHERE p.relname = ${parent}`.execute(db);
  return new Set(rows.rows.map((row) => row.name));
}

/**
 * Make the partitions that readings and rollups between `fromMs` and `toMs` need: one raw
 * partition per UTC day, one 5-minute and one hourly rollup partition per UTC month. Several processes may call
 * it at once: an advisory lock lets one create while the others wait, then find them made.
 */
export async function ensurePartitions(db: Kysely<Database>, fromMs: number, toMs: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
    const raw = await existing(trx, 'telemetry_raw');
    for (let day = Math.floor(fromMs / DAY_MS) * DAY_MS; day <= toMs; day += DAY_MS) {
      const name = rawPartitionName(day);
      if (raw.has(name)) continue;
      await sql
        .raw(
          `CREATE TABLE ${name} PARTITION OF telemetry_raw FOR VALUES FROM ('${new Date(day).toISOString()}') TO ('${new Date(day + DAY_MS).toISOString()}')`,
        )
        .execute(trx);
    }
    for (const table of ['telemetry_5m', 'telemetry_1h']) {
      const rollups = await existing(trx, table);
      for (let month = monthStart(fromMs); month <= toMs; month = nextMonth(month)) {
        const name = `${table}_p${compact(utcDay(month)).slice(0, 6)}`;
        if (rollups.has(name)) continue;
        // Steps are merged many times while they last: room on the page keeps updates in place.
        await sql
          .raw(
            `CREATE TABLE ${name} PARTITION OF ${table} FOR VALUES FROM ('${new Date(month).toISOString()}') TO ('${new Date(nextMonth(month)).toISOString()}') WITH (fillfactor = 70)`,
          )
          .execute(trx);
      }
    }
  });
}

/** The end of a partition from its name: the day or month after the one it is named for. */
function partitionEnd(name: string): number | undefined {
  const day = /_p(\d{4})(\d{2})(\d{2})$/.exec(name);
  if (day) return Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]) + 1);
  const month = /_p(\d{4})(\d{2})$/.exec(name);
  if (month) return Date.UTC(Number(month[1]), Number(month[2]), 1);
  return undefined;
}

/**
 * Keep the partitions right for `now`: raw partitions from `rawDays` days back to two days ahead,
 * rollup partitions for the months in between; raw partitions that end more than `rawDays` days ago
 * and rollup partitions that end more than 400 days ago are dropped whole (never emptied with
 * DELETE). Answers the names dropped.
 */
export async function maintainPartitions(
  db: Kysely<Database>,
  now: number,
  rawDays: number,
): Promise<string[]> {
  await ensurePartitions(db, now - rawDays * DAY_MS, now + DAYS_AHEAD * DAY_MS);
  const dropped: string[] = [];
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
    // A drop waits for the readings being written; it must not hold the table for long behind them.
    await sql`SET LOCAL lock_timeout = '5s'`.execute(trx);
    const expired = (names: Set<string>, keepMs: number) =>
      [...names].filter((name) => (partitionEnd(name) ?? Number.POSITIVE_INFINITY) <= now - keepMs);
    const old = [
      ...expired(await existing(trx, 'telemetry_raw'), rawDays * DAY_MS),
      ...expired(await existing(trx, 'telemetry_5m'), ROLLUP_5M_DAYS * DAY_MS),
      ...expired(await existing(trx, 'telemetry_1h'), ROLLUP_5M_DAYS * DAY_MS),
    ];
    for (const name of old) {
      await sql.raw(`DROP TABLE IF EXISTS ${name}`).execute(trx);
      dropped.push(name);
    }
  });
  return dropped;
}

/** The earliest device time a reading may have: raw partitions reach back `rawDays` days, less one day of margin. */
export function oldestAccepted(now: number, rawDays: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS - (rawDays - 1) * DAY_MS;
}
