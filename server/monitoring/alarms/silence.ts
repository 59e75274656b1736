import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import {
  DEVICE_SILENCE_RULES,
  NEVER_CONNECTED_RULE,
  neverConnectedCondition,
  OFFLINE_RULE,
  offlineCondition,
  SITE_OFFLINE_RULE,
} from './alarm-rules.ts';

/**
 * When a device or a site is silent: the one place that says so (the alarm service's sweep and
 * its handling of readings call these).
 *
 * A device is heard from when a reading of it is stored (`telemetry_latest.received_at`, the time
 * the service received it, so a backlog sent late counts when it arrives). It is silent once
 * `ALARM_OFFLINE_AFTER_S` passed since it was last heard from or, never heard from, since it was
 * installed: `offline` or `never-connected`; a never-heard device connected now is not silent. A
 * site is silent when it has devices and every one of them is (`site-offline`). Silence never
 * counts from before the service was watching (see {@link keepWatch}), so an outage of the whole
 * service does not make every device look silent when it comes back.
 */

/** How often the service looks for silent devices: a third of the limit, at most every 30 s. */
export function sweepEveryMs(offlineAfterS: number): number {
  return Math.max(1, Math.min(30, Math.floor(offlineAfterS / 3))) * 1000;
}

/** The advisory lock one sweep holds: with several processes, one looks at a time. */
const SWEEP_LOCK = 7_261_015;

/** Take the sweep's lock for this transaction, if no other process holds it. */
export async function trySweepLock(trx: Kysely<Database>): Promise<boolean> {
  const row = await sql<{
    locked: boolean;
  }>`SELECT pg_try_advisory_xact_lock(${SWEEP_LOCK}) AS locked`.execute(trx);
  return row.rows[0]?.locked === true;
}

/**
 * Record that the service looks at `now`, and answer since when it has watched without a break:
 * a look more than `breakMs` after the one before (no process looked: the service was down) starts
 * the watch again at `now`.
 */
export async function keepWatch(trx: Kysely<Database>, now: number, breakMs: number): Promise<number> {
  const at = new Date(now).toISOString();
  const row = await sql<{ watching_since: Date }>`
    INSERT INTO alarm_watch AS w (id, watching_since, checked_at) VALUES (1, ${at}::timestamptz, ${at}::timestamptz)
    ON CONFLICT (id) DO UPDATE SET
      watching_since = CASE WHEN w.checked_at < ${at}::timestamptz - make_interval(secs => ${breakMs / 1000})
                            THEN ${at}::timestamptz ELSE w.watching_since END,
      checked_at = greatest(w.checked_at, ${at}::timestamptz)
    RETURNING watching_since`.execute(trx);
  return new Date(row.rows[0]?.watching_since ?? now).getTime();
}

/**
 * Say the service has been watching since `since`, as of `now` (demo data: its history was
 * generated as if the service had watched it).
 */
export async function setWatch(db: Kysely<Database>, since: number, now: number): Promise<void> {
  await db
    .insertInto('alarm_watch')
    .values({ id: 1, watching_since: new Date(since), checked_at: new Date(now) })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({ watching_since: new Date(since), checked_at: new Date(now) }),
    )
    .execute();
}

/** An open alarm of a device's silence whose condition ended, and when it ended. */
export interface EndedSilence {
  id: number;
  endedAt: Date;
}

/**
 * Raise `offline` or `never-connected` for every device silent at `now` that has no such alarm
 * open; answers the new alarms. `state` is the state a new alarm starts in.
 */
export async function raiseSilentDevices(
  trx: Kysely<Database>,
  options: {
    now: number;
    watchingSince: number;
    offlineAfterS: number;
    state: string;
    online: RawBuilder<boolean>;
  },
): Promise<{ id: number; raised_at: Date }[]> {
  const { now, watchingSince, offlineAfterS, state } = options;
  const offline = offlineCondition(offlineAfterS);
  const never = neverConnectedCondition(offlineAfterS);
  const at = new Date(now).toISOString();
  const silentFrom = new Date(Math.max(watchingSince, 0)).toISOString();
  const cutoff = new Date(now - offlineAfterS * 1000).toISOString();
  const raised = await sql<{ id: number; raised_at: Date }>`
    INSERT INTO alarms (device_id, rule, kind, severity, message, value, state, raised_at)
    SELECT s.device_id, s.rule, 'offline', ${offline.severity}, s.message, NULL, ${state}, ${at}::timestamptz
    FROM (
      SELECT d.id AS device_id,
             CASE WHEN l.device_id IS NULL THEN ${never.rule} ELSE ${offline.rule} END AS rule,
             CASE WHEN l.device_id IS NULL THEN ${never.message} ELSE ${offline.message} END AS message
      FROM devices d
      LEFT JOIN telemetry_latest l ON l.device_id = d.id
      LEFT JOIN device_presence ON device_presence.device_id = d.id AND ${options.online}
      WHERE greatest(coalesce(l.received_at, d.installed_at), ${silentFrom}::timestamptz) < ${cutoff}::timestamptz
        AND (l.device_id IS NOT NULL OR device_presence.serial IS NULL)
    ) s
    WHERE NOT EXISTS (
      SELECT 1 FROM alarms a WHERE a.device_id = s.device_id AND a.rule = s.rule AND a.state <> 'cleared')
    ON CONFLICT (device_id, rule) WHERE state <> 'cleared' DO NOTHING
    RETURNING id, raised_at`.execute(trx);
  return raised.rows;
}

/**
 * Open silence alarms of devices whose silence ended: `offline` once the device was heard from
 * within the limit, `never-connected` once it was heard from at all or is connected now.
 */
export async function endedDeviceSilences(
  trx: Kysely<Database>,
  options: { now: number; offlineAfterS: number; online: RawBuilder<boolean> },
): Promise<EndedSilence[]> {
  const { now, offlineAfterS } = options;
  const cutoff = new Date(now - offlineAfterS * 1000).toISOString();
  const rows = await sql<{ id: number; ended_at: Date }>`
    SELECT a.id, coalesce(l.received_at, device_presence.connected_at, ${new Date(now).toISOString()}::timestamptz) AS ended_at
    FROM alarms a
    LEFT JOIN telemetry_latest l ON l.device_id = a.device_id
    LEFT JOIN device_presence ON device_presence.device_id = a.device_id AND ${options.online}
    WHERE a.state <> 'cleared' AND (
      (a.rule = ${OFFLINE_RULE} AND l.received_at >= ${cutoff}::timestamptz)
      OR (a.rule = ${NEVER_CONNECTED_RULE} AND (l.device_id IS NOT NULL OR device_presence.serial IS NOT NULL)))`.execute(
    trx,
  );
  return rows.rows.map((row) => ({ id: row.id, endedAt: new Date(row.ended_at) }));
}

/** Sites with devices, every one of them with a silence alarm open, and no site alarm open yet. */
export async function newlySilentSites(trx: Kysely<Database>): Promise<number[]> {
  const rows = await sql<{ site_id: number }>`
    SELECT d.site_id FROM devices d
    LEFT JOIN alarms a ON a.device_id = d.id AND a.rule = ANY(${DEVICE_SILENCE_RULES}::text[]) AND a.state <> 'cleared'
    GROUP BY d.site_id
    HAVING bool_and(a.id IS NOT NULL)
       AND NOT EXISTS (SELECT 1 FROM alarms s WHERE s.site_id = d.site_id AND s.rule = ${SITE_OFFLINE_RULE} AND s.state <> 'cleared')`.execute(
    trx,
  );
  return rows.rows.map((row) => row.site_id);
}

/** Open site alarms of sites that are no longer silent: a device with no silence alarm, or none at all. */
export async function endedSiteSilences(trx: Kysely<Database>, now: number): Promise<EndedSilence[]> {
  const rows = await sql<{ id: number }>`
    SELECT s.id FROM alarms s
    WHERE s.rule = ${SITE_OFFLINE_RULE} AND s.state <> 'cleared' AND (
      NOT EXISTS (SELECT 1 FROM devices d WHERE d.site_id = s.site_id)
      OR EXISTS (
        SELECT 1 FROM devices d WHERE d.site_id = s.site_id AND NOT EXISTS (
          SELECT 1 FROM alarms a WHERE a.device_id = d.id AND a.rule = ANY(${DEVICE_SILENCE_RULES}::text[])
            AND a.state <> 'cleared')))`.execute(trx);
  return rows.rows.map((row) => ({ id: row.id, endedAt: new Date(now) }));
}

/**
 * Open site alarms of the sites of devices just heard from, each ended when the first of its
 * devices was heard (`heardAt`: epoch ms by device id).
 */
export async function siteSilencesOf(
  trx: Kysely<Database>,
  heardAt: ReadonlyMap<number, number>,
): Promise<EndedSilence[]> {
  if (heardAt.size === 0) return [];
  // Open site alarms first (few, usually none, found through their partial index): joined the
  // other way, every batch looked up each of its devices to find none (about 50 ms a batch of 2,000).
  const open = await sql<{ id: number; site_id: number }>`
    SELECT id, site_id FROM alarms
    WHERE device_id IS NULL AND rule = ${SITE_OFFLINE_RULE} AND state <> 'cleared'`.execute(trx);
  if (open.rows.length === 0) return [];
  const rows = await sql<{ id: number; device_ids: number[] }>`
    SELECT s.id, array_agg(d.id) AS device_ids
    FROM unnest(${open.rows.map((row) => row.id)}::int[], ${open.rows.map((row) => row.site_id)}::int[]) AS s(id, site_id)
    JOIN devices d ON d.site_id = s.site_id AND d.id = ANY(${[...heardAt.keys()]}::int[])
    GROUP BY s.id`.execute(trx);
  return rows.rows.map((row) => ({
    id: row.id,
    endedAt: new Date(Math.min(...row.device_ids.map((id) => heardAt.get(id) ?? Number.POSITIVE_INFINITY))),
  }));
}
