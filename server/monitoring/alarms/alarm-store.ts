import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { createActor, type InspectionEvent } from 'xstate';
import type { Database } from '../../db/schema.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { ProductCatalogue } from '../telemetry/product-catalogue.ts';
import type { Reading } from '../telemetry/read-frame.ts';
import {
  type AlarmLifecycleEvent,
  type AlarmLifecycleState,
  alarmLifecycleMachine,
} from './alarm-lifecycle-machine.ts';
import { type AlarmNews, queueAlarmMail } from './alarm-mail.ts';
import {
  type AlarmCondition,
  alarmConditions,
  DEVICE_SILENCE_RULES,
  SITE_OFFLINE_RULE,
  siteOfflineCondition,
} from './alarm-rules.ts';
import { emitAlarmEvents } from './alarm-webhooks.ts';
import {
  type EndedSilence,
  endedDeviceSilences,
  endedSiteSilences,
  keepWatch,
  newlySilentSites,
  raiseSilentDevices,
  siteSilencesOf,
  sweepEveryMs,
  trySweepLock,
} from './silence.ts';

/** An alarm row as the lifecycle needs it. */
interface OpenAlarm {
  id: number;
  device_id: number | null;
  rule: string;
  state: AlarmLifecycleState;
  raised_at: Date;
  acknowledged_by: number | null;
  acknowledged_at: Date | null;
  ack_note: string | null;
}

const ms = (date: Date | null) => (date === null ? null : new Date(date).getTime());

/** The stored alarm as a snapshot of the lifecycle machine, so the machine decides what may follow. */
function snapshotOf(row: OpenAlarm) {
  return alarmLifecycleMachine.resolveState({
    value: row.state,
    context: {
      raisedAt: new Date(row.raised_at).getTime(),
      acknowledgedBy: row.acknowledged_by,
      acknowledgedAt: ms(row.acknowledged_at),
      note: row.ack_note,
      clearedAt: null,
    },
  });
}

export interface AlarmServiceOptions {
  db: Kysely<Database>;
  mailer: Mailer;
  catalogue: ProductCatalogue;
  offlineAfterS: number;
  /** The condition "the device is connected now" on `device_presence` (a never-heard device connected now is not silent). */
  online: () => RawBuilder<boolean>;
}

/** The columns of an alarm the lifecycle needs. */
const LIFECYCLE_COLUMNS = [
  'id',
  'device_id',
  'rule',
  'state',
  'raised_at',
  'acknowledged_by',
  'acknowledged_at',
  'ack_note',
] as const;

/** What acknowledging answered: done, or refused by the lifecycle (not active any more). */
export type AcknowledgeResult = { ok: true } | { ok: false; state: AlarmLifecycleState };

/**
 * Alarms: raised by rules (the catalogue's codes, bits and limits on each device's newest reading;
 * silence past `ALARM_OFFLINE_AFTER_S`: a device offline or never connected, a site all of whose
 * devices are silent, see silence.ts), moved through their lifecycle by the lifecycle machine,
 * every transition stored with its time in the transaction that makes it, with its mail. At most
 * one alarm per device (or site) and rule is open: the database's unique indexes decide when
 * several processes raise the same alarm at once, and a transition applies only to the state it
 * was computed from.
 */
/** The rule of a device's alarm after a firmware update reverted. */
export const FIRMWARE_REVERTED_RULE = 'firmware-reverted';

export class AlarmService {
  private sweeper: NodeJS.Timeout | undefined;
  /** Sees every step of the lifecycle machine (the model-based tests' coverage); none by default. */
  inspect: ((event: InspectionEvent) => void) | undefined;
  /** Called after transitions were stored (their webhook events with them): wakes the webhook sender. */
  afterNews: (() => void) | undefined;

  constructor(private readonly options: AlarmServiceOptions) {}

  /** The state a new alarm starts in: the lifecycle machine's initial state. */
  private initialState(raisedAt: number): AlarmLifecycleState {
    const actor = createActor(alarmLifecycleMachine, { input: { raisedAt }, inspect: this.inspect });
    actor.start();
    const state = actor.getSnapshot().value as AlarmLifecycleState;
    actor.stop();
    return state;
  }

  /** The lifecycle machine, restored in the stored state, given one event: the snapshot it ends in. */
  private lifecycle(row: OpenAlarm, event: AlarmLifecycleEvent) {
    const actor = createActor(alarmLifecycleMachine, {
      snapshot: snapshotOf(row),
      input: { raisedAt: new Date(row.raised_at).getTime() },
      inspect: this.inspect,
    });
    actor.start();
    actor.send(event);
    const after = actor.getSnapshot();
    actor.stop();
    return after;
  }

  /**
   * Apply a lifecycle event to a stored alarm. Answers the state the machine moved to, or
   * undefined when the machine refuses the event in that state, or the alarm changed meanwhile.
   */
  private async apply(
    trx: Transaction<Database>,
    row: OpenAlarm,
    event: AlarmLifecycleEvent,
    news: AlarmNews[],
  ): Promise<AlarmLifecycleState | undefined> {
    const after = this.lifecycle(row, event);
    if (after.value === row.state) return undefined;
    const state = after.value as AlarmLifecycleState;
    const { context } = after;
    const updated = await trx
      .updateTable('alarms')
      .set({
        state,
        acknowledged_at: context.acknowledgedAt === null ? null : new Date(context.acknowledgedAt),
        acknowledged_by: context.acknowledgedBy,
        ack_note: context.note,
        cleared_at: context.clearedAt === null ? null : new Date(context.clearedAt),
      })
      .where('id', '=', row.id)
      .where('state', '=', row.state)
      .returning('id')
      .executeTakeFirst();
    if (!updated) return undefined;
    await trx
      .insertInto('alarm_transitions')
      .values({
        alarm_id: row.id,
        state,
        at: new Date(event.at),
        user_id: event.type === 'alarm.acknowledge' ? event.by : null,
        note: event.type === 'alarm.acknowledge' ? event.note : null,
      })
      .onConflict((oc) => oc.columns(['alarm_id', 'state']).doNothing())
      .execute();
    news.push({ alarmId: row.id, state, at: event.at });
    return state;
  }

  /** Raise new alarms (those already open are left as they are); answers their news. */
  private async raise(
    trx: Transaction<Database>,
    raising: { deviceId: number; condition: AlarmCondition; at: number }[],
    news: AlarmNews[],
  ): Promise<void> {
    if (raising.length === 0) return;
    const raised = await sql<{ id: number; raised_at: Date }>`
      INSERT INTO alarms (device_id, rule, kind, severity, message, value, state, raised_at)
      SELECT * FROM unnest(
        ${raising.map((r) => r.deviceId)}::int[], ${raising.map((r) => r.condition.rule)}::text[],
        ${raising.map((r) => r.condition.kind)}::text[], ${raising.map((r) => r.condition.severity)}::text[],
        ${raising.map((r) => r.condition.message)}::text[], ${raising.map((r) => r.condition.value)}::float8[],
        ${raising.map((r) => this.initialState(r.at))}::text[],
        ${raising.map((r) => new Date(r.at).toISOString())}::timestamptz[])
      ON CONFLICT (device_id, rule) WHERE state <> 'cleared' DO NOTHING
      RETURNING id, raised_at`.execute(trx);
    await this.recordRaised(trx, raised.rows, news);
  }

  private async recordRaised(
    trx: Transaction<Database>,
    rows: { id: number; raised_at: Date }[],
    news: AlarmNews[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await trx
      .insertInto('alarm_transitions')
      .values(rows.map((row) => ({ alarm_id: row.id, state: 'active' as const, at: row.raised_at })))
      .execute();
    for (const row of rows)
      news.push({ alarmId: row.id, state: 'active', at: new Date(row.raised_at).getTime() });
  }

  /** Run `work` in a transaction with its news, queue the news's mail and webhook events in it, then wake the mailer. */
  private async withNews<T>(work: (trx: Transaction<Database>, news: AlarmNews[]) => Promise<T>): Promise<T> {
    const news: AlarmNews[] = [];
    const result = await this.options.db.transaction().execute(async (trx) => {
      const value = await work(trx, news);
      await queueAlarmMail(trx, this.options.mailer, news);
      await emitAlarmEvents(trx, news);
      return value;
    });
    if (news.length > 0) {
      this.options.mailer.kick();
      this.afterNews?.();
    }
    return result;
  }

  /**
   * After a batch of readings was stored: a device that reported is not silent (its `offline` or
   * `never-connected` alarm clears, and its site's own alarm), and each device's newest reading
   * (when it is the newest stored) raises the conditions it meets and clears the open alarms whose
   * condition it no longer meets.
   */
  async afterReadings(fresh: readonly Reading[]): Promise<void> {
    const newest = new Map<number, Reading>();
    for (const reading of fresh) {
      const known = newest.get(reading.deviceId);
      if (!known || reading.deviceTime > known.deviceTime) newest.set(reading.deviceId, reading);
    }
    const ids = [...newest.keys()];
    if (ids.length === 0) return;
    await this.withNews(async (trx, news) => {
      // The devices whose newest reading is older than the one stored as their latest (it came
      // late): the usual batch has none, so no row per device comes back.
      const late = await sql<{ device_id: number }>`
        SELECT l.device_id FROM telemetry_latest l
        JOIN unnest(${ids}::int[], ${ids.map((id) => newest.get(id)?.deviceTime ?? 0)}::float8[]) AS b(device_id, t)
          ON l.device_id = b.device_id
        WHERE l.device_time > to_timestamp(b.t / 1000)`.execute(trx);
      const lateIds = new Set(late.rows.map((row) => row.device_id));
      const open = await this.openAlarms(trx, ids);
      // Each device's open alarms, found once rather than by a pass over all of them per device.
      const openOf = new Map<number, OpenAlarm[]>();
      for (const row of open) {
        if (row.device_id === null) continue;
        const list = openOf.get(row.device_id);
        if (list) list.push(row);
        else openOf.set(row.device_id, [row]);
      }
      const raising: { deviceId: number; condition: AlarmCondition; at: number }[] = [];
      // Silence ended when the batch's first reading of the device came.
      const heardAt = new Map<number, number>();
      for (const r of fresh)
        heardAt.set(r.deviceId, Math.min(r.receivedAt, heardAt.get(r.deviceId) ?? r.receivedAt));
      await this.endSilences(
        trx,
        open
          .filter((row) => DEVICE_SILENCE_RULES.includes(row.rule))
          .map((row) => ({ id: row.id, endedAt: new Date(heardAt.get(row.device_id ?? 0) ?? 0) })),
        news,
      );
      await this.endSilences(trx, await siteSilencesOf(trx, heardAt), news);
      for (const [deviceId, reading] of newest) {
        const mine = (openOf.get(deviceId) ?? []).filter(
          (row) => !DEVICE_SILENCE_RULES.includes(row.rule) && row.rule !== FIRMWARE_REVERTED_RULE,
        );
        // A reading that arrived late says nothing about now.
        if (lateIds.has(deviceId)) continue;
        const spec = this.options.catalogue.product(reading.modelId)?.spec;
        if (!spec) continue;
        const rules = new Set(mine.map((r) => r.rule));
        const holding = alarmConditions(spec, reading.values, rules);
        const held = new Set(holding.map((c) => c.rule));
        for (const row of mine)
          if (!held.has(row.rule))
            await this.apply(trx, row, { type: 'alarm.clear', at: reading.receivedAt }, news);
        for (const condition of holding)
          if (!rules.has(condition.rule)) raising.push({ deviceId, condition, at: reading.receivedAt });
      }
      await this.raise(trx, raising, news);
    });
  }

  /**
   * A device went back to its old firmware after a rollout's image did not come up: a warning that
   * stays (readings do not clear it) until an update of the device confirms.
   */
  async firmwareReverted(deviceId: number, reason: string, at = Date.now()): Promise<void> {
    await this.withNews((trx, news) =>
      this.raise(
        trx,
        [
          {
            deviceId,
            at,
            condition: {
              rule: FIRMWARE_REVERTED_RULE,
              kind: 'status',
              severity: 'warning',
              message: `Firmware update reverted: ${reason}`,
              value: null,
            },
          },
        ],
        news,
      ),
    );
  }

  /** A firmware update of the device confirmed: its alarm of a reverted update clears. */
  async firmwareConfirmed(deviceId: number, at = Date.now()): Promise<void> {
    await this.withNews(async (trx, news) => {
      for (const row of await this.openAlarms(trx, [deviceId]))
        if (row.rule === FIRMWARE_REVERTED_RULE)
          await this.apply(trx, row, { type: 'alarm.clear', at }, news);
    });
  }

  /** Clear these open alarms (their silence ended), each at its time, locked as they are read. */
  private async endSilences(trx: Transaction<Database>, ended: EndedSilence[], news: AlarmNews[]) {
    if (ended.length === 0) return;
    const rows = (await trx
      .selectFrom('alarms')
      .select(LIFECYCLE_COLUMNS)
      .where(
        'id',
        'in',
        ended.map((e) => e.id),
      )
      .where('state', '<>', 'cleared')
      .orderBy('id')
      .forUpdate()
      .execute()) as OpenAlarm[];
    const at = new Map(ended.map((e) => [e.id, e.endedAt.getTime()]));
    // Never cleared before it was raised (a reading stored while the sweep raised it).
    for (const row of rows) {
      const clearedAt = Math.max(at.get(row.id) ?? 0, new Date(row.raised_at).getTime());
      await this.apply(trx, row, { type: 'alarm.clear', at: clearedAt }, news);
    }
  }

  private async openAlarms(trx: Transaction<Database>, deviceIds: number[]): Promise<OpenAlarm[]> {
    return trx
      .selectFrom('alarms')
      .select(LIFECYCLE_COLUMNS)
      .where('device_id', '=', sql<number>`ANY(${deviceIds}::int[])`)
      .where('state', '<>', 'cleared')
      .execute() as Promise<OpenAlarm[]>;
  }

  /**
   * Look for silence at `now` (silence.ts): raise `offline` and `never-connected` for the devices
   * silent past `ALARM_OFFLINE_AFTER_S`, and `site-offline` for the sites all of whose devices
   * are; clear those whose silence ended. One process looks at a time (the others skip: answers 0).
   * Answers how many alarms were raised.
   */
  async sweepOffline(now: number): Promise<number> {
    const { offlineAfterS } = this.options;
    return this.withNews(async (trx, news) => {
      if (!(await trySweepLock(trx))) return 0;
      const watchingSince = await keepWatch(trx, now, 3 * sweepEveryMs(offlineAfterS));
      const online = this.options.online();
      await this.endSilences(trx, await endedDeviceSilences(trx, { now, offlineAfterS, online }), news);
      const state = this.initialState(now);
      const devices = await raiseSilentDevices(trx, { now, watchingSince, offlineAfterS, state, online });
      await this.recordRaised(trx, devices, news);
      await this.endSilences(trx, await endedSiteSilences(trx, now), news);
      const sites = await this.raiseSites(trx, await newlySilentSites(trx), now, state);
      await this.recordRaised(trx, sites, news);
      return devices.length + sites.length;
    });
  }

  /** Raise the site alarm of these sites (every device silent). */
  private async raiseSites(trx: Transaction<Database>, siteIds: number[], now: number, state: string) {
    if (siteIds.length === 0) return [];
    const condition = siteOfflineCondition(this.options.offlineAfterS);
    const raised = await sql<{ id: number; raised_at: Date }>`
      INSERT INTO alarms (site_id, rule, kind, severity, message, value, state, raised_at)
      SELECT site_id, ${SITE_OFFLINE_RULE}, ${condition.kind}, ${condition.severity}, ${condition.message},
             NULL, ${state}, ${new Date(now).toISOString()}::timestamptz
      FROM unnest(${siteIds}::int[]) AS s(site_id)
      ON CONFLICT (site_id, rule) WHERE device_id IS NULL AND state <> 'cleared' DO NOTHING
      RETURNING id, raised_at`.execute(trx);
    return raised.rows;
  }

  /**
   * Acknowledge an alarm with a note, as the lifecycle allows (only an active alarm). The caller
   * has checked that the person sees the alarm's device.
   */
  async acknowledge(
    alarmId: number,
    by: { id: number; name: string },
    note: string,
    now = Date.now(),
  ): Promise<AcknowledgeResult> {
    return this.withNews(async (trx, news) => {
      const row = (await trx
        .selectFrom('alarms')
        .select(LIFECYCLE_COLUMNS)
        .where('id', '=', alarmId)
        .forUpdate()
        .executeTakeFirstOrThrow()) as OpenAlarm;
      const state = await this.apply(trx, row, { type: 'alarm.acknowledge', by: by.id, at: now, note }, news);
      for (const item of news) item.by = { name: by.name };
      return state ? { ok: true } : { ok: false, state: row.state };
    });
  }

  /**
   * Look for silence every third of `ALARM_OFFLINE_AFTER_S` (at most every 30 s). Whether the
   * service was down before is in the database (silence.ts), not in this process.
   */
  start(): void {
    this.sweeper = setInterval(() => {
      this.sweepOffline(Date.now()).catch((error: unknown) =>
        console.error('[alarms] offline sweep failed:', error),
      );
    }, sweepEveryMs(this.options.offlineAfterS));
    this.sweeper.unref();
  }

  stop(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
