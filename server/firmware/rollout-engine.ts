import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { errorMessage } from '../../contracts/error-message.ts';
import type { RolloutDeviceState } from '../../contracts/firmware.ts';
import type { Database } from '../db/schema.ts';
import type { ServiceComms } from '../service-comms/service-comms.ts';
import { imageWithBytes } from './firmware-store.ts';
import { type UpdateImage, type UpdateOutcome, updateStep } from './rollout-update.ts';

/** Device states a device does not leave: the rollout is done with it. */
const FINISHED: RolloutDeviceState[] = ['confirmed', 'reverted', 'failed'];
/** Device states a wave waits for: a device under way, or one whose turn has come. */
const UNDER_WAY: RolloutDeviceState[] = ['queued', 'uploading', 'testing'];

export interface RolloutTimers {
  /** How often every process looks at the rollouts besides when something happens (default 5 s). */
  sweepMs: number;
  /** How long a device reset to test an image has to come back before it counts as failed (default 10 min). */
  comebackMs: number;
  /** How long one SMP exchange waits for the device's answer. */
  answerMs: number;
  /** The engine's clock (epoch ms; the server's, `ctx.now`): when a device's comeback time and a rollout's window are up. */
  now: () => number;
}

/** Why a device is left out once its rollout's window has closed. */
export const windowClosedReason = (endsAt: Date) =>
  `Still offline when the rollout's window closed (${endsAt.toISOString().slice(0, 16).replace('T', ' ')} UTC)`;

/** An audit record of a rollout: its step, the device it concerns, and who took it (null: the rollout). */
export async function auditRollout(
  db: Kysely<Database>,
  rolloutId: number,
  event: string,
  fields: { serial?: string; userId?: number; detail?: string } = {},
): Promise<void> {
  await db
    .insertInto('firmware_rollout_events')
    .values({
      rollout_id: rolloutId,
      event,
      serial: fields.serial ?? null,
      user_id: fields.userId ?? null,
      detail: fields.detail ?? null,
    })
    .execute();
}

/**
 * Runs firmware rollouts over the device sockets this process holds. Everything it knows is in the
 * database (each device's state), so any process, or this one after a restart, goes on where the
 * rollout was: a device is updated by the process that holds its socket, when its wave's turn has
 * come (the canary first; a wave once every device before it has finished), and a device offline at
 * its turn when it is back. A rollout whose failures pass its limit stops: devices under way finish,
 * no other starts. It looks again whenever something happens (a device comes online, a step ends,
 * someone steers a rollout) and every `sweepMs`.
 */
export class RolloutEngine {
  /** Serials whose update step runs in this process now. */
  private readonly active = new Set<string>();
  private readonly steps = new Set<Promise<void>>();
  private readonly images = new Map<number, Promise<UpdateImage | undefined>>();
  private pass: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly comms: ServiceComms,
    private readonly timers: RolloutTimers,
    /** Told of each device whose update ended (confirmed, or reverted: an alarm). */
    private readonly onEnded: (
      deviceId: number,
      outcome: 'confirmed' | 'reverted',
      reason: string,
    ) => Promise<void> = async () => {},
  ) {}

  start(): void {
    this.unsubscribe = this.comms.onOnline(() => this.kick());
    this.timer = setInterval(() => this.kick(), this.timers.sweepMs);
    this.timer.unref();
    this.kick();
  }

  /** Stop starting steps; wait for the running ones (their devices' sockets are closing). */
  stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    return Promise.all([this.pass, ...this.steps]).then(() => {});
  }

  /** The engine's clock (epoch ms): a rollout's start and window are stamped with it, so they agree with its looks. */
  now(): number {
    return this.timers.now();
  }

  /** Resolves once no look and no step runs (a test's way to know the engine has done all it would). */
  async idle(): Promise<void> {
    while (this.pass || this.steps.size > 0) await Promise.all([this.pass, ...this.steps]);
  }

  /** Look at the rollouts now (soon, when a look is under way). */
  kick(): void {
    if (this.stopped) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = (async () => {
      do {
        this.again = false;
        try {
          await this.look();
        } catch (error) {
          if (!this.stopped) console.error(`[rollouts] ${errorMessage(error)}`);
        }
      } while (this.again && !this.stopped);
      this.pass = undefined;
    })();
  }

  private async look(): Promise<void> {
    const now = this.timers.now();
    // A device reset to test the image that has not come back in time has failed.
    const lost = await this.db
      .updateTable('firmware_rollout_devices')
      .set({
        state: 'failed',
        reason: `The device did not come back within ${Math.round(this.timers.comebackMs / 1000)} s of its restart`,
        updated_at: new Date(now),
      })
      .where('state', '=', 'testing')
      .where('updated_at', '<', new Date(now - this.timers.comebackMs))
      .returning(['rollout_id', 'serial'])
      .execute();
    for (const device of lost)
      await auditRollout(this.db, device.rollout_id, 'failed', {
        serial: device.serial,
        detail: 'no comeback',
      });
    const rollouts = await this.db
      .selectFrom('firmware_rollouts')
      .select(['id', 'firmware_id', 'state', 'max_failures', 'window_ends_at'])
      .where('state', 'in', ['running', 'paused', 'stopped', 'cancelled'])
      .orderBy('id')
      .execute();
    for (const rollout of rollouts) {
      if (this.stopped) return;
      await this.lookAt(rollout, now);
    }
  }

  private async lookAt(
    rollout: { id: number; firmware_id: number; state: string; max_failures: number; window_ends_at: Date },
    now: number,
  ): Promise<void> {
    // Past the window, a device offline is left out: it is not updated when it comes back.
    const closed = now >= new Date(rollout.window_ends_at).getTime();
    const leftOut = windowClosedReason(new Date(rollout.window_ends_at));
    if (closed && rollout.state !== 'cancelled') {
      const missed = await this.db
        .updateTable('firmware_rollout_devices')
        .set({ reason: leftOut, updated_at: new Date(now) })
        .where('rollout_id', '=', rollout.id)
        .where('state', '=', 'offline')
        .where((eb) => eb.or([eb('reason', 'is', null), eb('reason', '!=', leftOut)]))
        .returning('serial')
        .execute();
      for (const device of missed)
        await auditRollout(this.db, rollout.id, 'offline', { serial: device.serial, detail: leftOut });
    }
    const devices = await this.db
      .selectFrom('firmware_rollout_devices')
      .select(['device_id', 'serial', 'wave', 'state'])
      .where('rollout_id', '=', rollout.id)
      .orderBy('position')
      .execute();
    // Devices under way finish whatever the rollout's state: after a restart, or back from a reset.
    for (const device of devices)
      if ((device.state === 'uploading' || device.state === 'testing') && this.mayStep(device.serial))
        this.step(rollout.id, rollout.firmware_id, device, device.state === 'testing');
    if (rollout.state !== 'running') return;
    const failures = devices.filter((d) => d.state === 'reverted' || d.state === 'failed').length;
    if (failures > rollout.max_failures) {
      await this.endRollout(
        rollout.id,
        'stopped',
        `${failures} failures, over the limit of ${rollout.max_failures}`,
      );
      return;
    }
    const offline = devices.filter((d) => d.state === 'offline').length;
    if (devices.every((d) => FINISHED.includes(d.state) || (closed && d.state === 'offline'))) {
      await this.endRollout(
        rollout.id,
        'done',
        `${devices.length - failures - offline} confirmed, ${failures} failed${offline ? `, ${offline} offline` : ''}`,
      );
      return;
    }
    // The wave whose turn it is: the first with a device not yet through (offline ones wait apart).
    const turn = Math.min(...devices.filter((d) => UNDER_WAY.includes(d.state)).map((d) => d.wave));
    for (const device of devices) {
      const due =
        (device.state === 'queued' && device.wave === turn) || (device.state === 'offline' && !closed);
      if (!due || !this.mayStep(device.serial)) {
        if (due && device.state === 'queued' && !(await this.comms.presence.holderOf(device.serial))) {
          await this.mark(rollout.id, device, 'queued', {
            state: 'offline',
            reason: closed ? leftOut : 'Offline at its turn',
          });
          // Its wave may be through now: the next one's turn has come.
          this.again = true;
        }
        continue;
      }
      const claimed = await this.db
        .updateTable('firmware_rollout_devices')
        .set({ state: 'uploading', reason: null, updated_at: new Date(this.timers.now()) })
        .where('rollout_id', '=', rollout.id)
        .where('device_id', '=', device.device_id)
        .where('state', '=', device.state)
        .returning('serial')
        .executeTakeFirst();
      if (!claimed) continue;
      await auditRollout(this.db, rollout.id, 'uploading', { serial: device.serial });
      this.step(rollout.id, rollout.firmware_id, device, false);
    }
  }

  /** Whether this process may run a step of this device now: it holds its socket, and runs none for it. */
  private mayStep(serial: string): boolean {
    return !this.stopped && this.comms.holds(serial) && !this.active.has(serial);
  }

  private step(
    rolloutId: number,
    firmwareId: number,
    device: { device_id: number; serial: string; state: RolloutDeviceState },
    wasReset: boolean,
  ): void {
    const { serial } = device;
    this.active.add(serial);
    const run = (async () => {
      const image = await this.image(firmwareId);
      if (!image) {
        await this.mark(rolloutId, device, device.state, {
          state: 'failed',
          version: null,
          reason: 'The image is gone',
        });
        return;
      }
      // The device's state in the database as the step goes on.
      let now: RolloutDeviceState = wasReset ? 'testing' : 'uploading';
      const outcome = await updateStep(
        (message) => this.comms.smp(serial, message, this.timers.answerMs),
        image,
        wasReset,
        async () => {
          await this.mark(rolloutId, device, now, { state: 'testing' });
          now = 'testing';
        },
      );
      // Stopping: the device's socket closed under it; the next start goes on from the database.
      if (this.stopped) return;
      // Reset to test the image and away again: it has its time to come back (`comebackMs`).
      if (outcome.state === 'offline' && now === 'testing') return;
      if (outcome.state !== 'testing') await this.mark(rolloutId, device, now, outcome);
      if (outcome.state === 'reverted' || outcome.state === 'confirmed')
        await this.onEnded(device.device_id, outcome.state, 'reason' in outcome ? outcome.reason : '');
    })()
      .catch((error: unknown) => console.error(`[rollouts] ${serial}: ${errorMessage(error)}`))
      .finally(() => {
        this.active.delete(serial);
        this.steps.delete(run);
        this.kick();
      });
    this.steps.add(run);
  }

  /** Move a device on from state `from` (only if it is still there) and audit it. */
  private async mark(
    rolloutId: number,
    device: { device_id: number; serial: string },
    from: RolloutDeviceState,
    outcome: UpdateOutcome | { state: RolloutDeviceState; version?: string | null; reason?: string },
  ): Promise<void> {
    const version = 'version' in outcome ? outcome.version : undefined;
    const reason = 'reason' in outcome ? outcome.reason : undefined;
    const moved = await this.db
      .updateTable('firmware_rollout_devices')
      .set({
        state: outcome.state,
        reason: reason ?? null,
        updated_at: new Date(this.timers.now()),
        ...(version ? { version } : {}),
      })
      .where('rollout_id', '=', rolloutId)
      .where('device_id', '=', device.device_id)
      .where('state', '=', from)
      .returning('serial')
      .executeTakeFirst();
    if (moved)
      await auditRollout(this.db, rolloutId, outcome.state, {
        serial: device.serial,
        ...(reason ? { detail: reason } : version ? { detail: version } : {}),
      });
  }

  private async endRollout(id: number, state: 'stopped' | 'done', detail: string): Promise<void> {
    const ended = await this.db
      .updateTable('firmware_rollouts')
      .set({ state, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .returning('id')
      .executeTakeFirst();
    if (ended) await auditRollout(this.db, id, state, { detail });
  }

  private image(firmwareId: number): Promise<UpdateImage | undefined> {
    let image = this.images.get(firmwareId);
    if (!image) {
      image = imageWithBytes(this.db, firmwareId).then((row) =>
        row
          ? {
              bytes: row.bytes,
              fileSha: createHash('sha256').update(row.bytes).digest(),
              imageHash: Buffer.from(row.sha256, 'hex'),
              version: row.version,
            }
          : undefined,
      );
      image.catch(() => this.images.delete(firmwareId));
      this.images.set(firmwareId, image);
    }
    return image;
  }
}
