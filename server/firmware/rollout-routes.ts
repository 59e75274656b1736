import { Hono } from 'hono';
import { sql } from 'kysely';
import { seesEverything } from '../../contracts/access-policy.ts';
import {
  ROLLOUT_WINDOW_HOURS,
  type Rollout,
  type RolloutList,
  type RolloutState,
  rolloutCounts,
  rolloutCreatedSchema,
  rolloutCreateSchema,
  rolloutListQuerySchema,
  rolloutListSchema,
  rolloutSchema,
} from '../../contracts/firmware.ts';
import { firmwareModelsOf, mayReadFirmwareOf } from '../access/firmware-access.ts';
import { requireRollout, rolloutDevices } from '../access/rollout-access.ts';
import { idParams } from '../config-service/params.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { auditRollout } from './rollout-engine.ts';

/** The rollout states each steering call moves from, and where to. */
const STEERING = {
  pause: { from: ['running'], to: 'paused' },
  resume: { from: ['paused'], to: 'running' },
  cancel: { from: ['running', 'paused', 'stopped'], to: 'cancelled' },
} as const satisfies Record<string, { from: RolloutState[]; to: RolloutState }>;

/** A rollout's row with its image's model and version, as both answers read it. */
interface RolloutRow {
  id: number;
  state: RolloutState;
  firmware_id: number;
  model_id: string;
  version: string;
  canary: number;
  wave_size: number;
  max_failures: number;
  created_at: Date;
  window_ends_at: Date;
}

/** What a rollout's list entry and its own answer both say of it: everything but its devices. */
const rolloutFacts = (row: RolloutRow): Omit<Rollout, 'devices'> => ({
  id: row.id,
  state: row.state,
  firmwareId: row.firmware_id,
  modelId: row.model_id,
  version: row.version,
  canary: row.canary,
  waveSize: row.wave_size,
  maxFailures: row.max_failures,
  createdAt: new Date(row.created_at).toISOString(),
  windowEndsAt: new Date(row.window_ends_at).toISOString(),
});

/**
 * Firmware rollouts, mounted at `/fleet/firmware-rollouts`: an image sent to a set of devices over
 * their sockets, the canary first, then in waves, stopping itself past its failure limit; paused,
 * resumed and cancelled by whoever may see it. Every step is audited.
 */
export function rolloutRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;

  app.post(
    '/',
    describeRoute({
      summary: 'Start a firmware rollout: the canary first, then waves, over the device sockets',
      tag: 'firmware',
      example: { firmwareId: 3, siteId: 12, canary: 1, waveSize: 10, maxFailures: 2, windowHours: 48 },
      responses: {
        201: { description: 'The rollout, running', schema: rolloutCreatedSchema },
        400: { description: 'A serial of another model, or no device to update' },
        403: { description: 'A device or site the caller sees without the installer role' },
        404: { description: 'An image, site or device the caller may not see' },
        409: { description: 'rollout_device_busy: a device is in another rollout that is under way' },
      },
    }),
    validate('json', rolloutCreateSchema),
    async (c) => {
      const principal = c.get('principal');
      const body = c.req.valid('json');
      const image = await db
        .selectFrom('firmware_images')
        .select(['id', 'model_id', 'version'])
        .where('id', '=', body.firmwareId)
        .executeTakeFirst();
      if (!image || !mayReadFirmwareOf(await firmwareModelsOf(db, principal), image.model_id))
        throw notFound('Firmware image');
      const devices = await rolloutDevices(db, principal, image.model_id, body);
      // The engine's clock: the window it closes is the one stamped here.
      const now = ctx.rollouts.now();
      const id = await db.transaction().execute(async (trx) => {
        // One rollout under way per device: two would upload over each other.
        await sql`SELECT pg_advisory_xact_lock(7261026)`.execute(trx);
        const busy = await trx
          .selectFrom('firmware_rollout_devices')
          .innerJoin('firmware_rollouts', 'firmware_rollouts.id', 'firmware_rollout_devices.rollout_id')
          .select('firmware_rollout_devices.serial')
          .where('firmware_rollouts.state', 'in', ['running', 'paused', 'stopped'])
          // An offline device is waited for until its rollout's window closes; then it is free.
          .where((eb) =>
            eb.or([
              eb('firmware_rollout_devices.state', 'in', ['queued', 'uploading', 'testing']),
              eb.and([
                eb('firmware_rollout_devices.state', '=', 'offline'),
                eb('firmware_rollouts.window_ends_at', '>', new Date(now)),
              ]),
            ]),
          )
          .where(
            'firmware_rollout_devices.device_id',
            'in',
            devices.map((d) => d.id),
          )
          .executeTakeFirst();
        if (busy)
          throw new ApiError(
            409,
            'rollout_device_busy',
            `${busy.serial} is in another rollout under way: cancel it or let it finish first`,
          );
        const { id } = await trx
          .insertInto('firmware_rollouts')
          .values({
            firmware_id: image.id,
            state: 'running',
            canary: body.canary,
            wave_size: body.waveSize,
            max_failures: body.maxFailures,
            created_at: new Date(now),
            window_ends_at: new Date(now + (body.windowHours ?? ROLLOUT_WINDOW_HOURS) * 3_600_000),
            created_by: principal.id,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('firmware_rollout_devices')
          .values(
            devices.map((device, position) => ({
              rollout_id: id,
              device_id: device.id,
              serial: device.serial,
              position,
              wave: position < body.canary ? 0 : 1 + Math.floor((position - body.canary) / body.waveSize),
              state: 'queued' as const,
              version: device.firmwareVersion,
            })),
          )
          .execute();
        await auditRollout(trx, id, 'created', {
          userId: principal.id,
          detail: `${image.model_id} ${image.version} to ${devices.length} devices; canary ${body.canary}, waves of ${body.waveSize}, at most ${body.maxFailures} failures, a window of ${body.windowHours ?? ROLLOUT_WINDOW_HOURS} h`,
        });
        return id;
      });
      ctx.rollouts.kick();
      return c.json({ id, state: 'running' as const }, 201);
    },
  );

  app.get(
    '/',
    describeRoute({
      summary: 'Rollouts the caller may see, newest first, with how many devices are in each state',
      tag: 'firmware',
      responses: { 200: { description: 'A page of rollouts', schema: rolloutListSchema } },
    }),
    validate('query', rolloutListQuerySchema),
    async (c) => {
      const principal = c.get('principal');
      const { limit, before } = c.req.valid('query');
      let query = db
        .selectFrom('firmware_rollouts')
        .innerJoin('firmware_images', 'firmware_images.id', 'firmware_rollouts.firmware_id')
        .selectAll('firmware_rollouts')
        .select(['firmware_images.model_id', 'firmware_images.version'])
        .orderBy('firmware_rollouts.id', 'desc')
        .limit(limit + 1);
      // The rule of `GET …/{id}` (maySteerRollout): everything, or the rollouts one started.
      if (!seesEverything(principal)) query = query.where('firmware_rollouts.created_by', '=', principal.id);
      if (before !== undefined) query = query.where('firmware_rollouts.id', '<', before);
      const rows = await query.execute();
      const page = rows.slice(0, limit);
      const counted =
        page.length === 0
          ? []
          : await db
              .selectFrom('firmware_rollout_devices')
              .select(['rollout_id', 'state', (eb) => eb.fn.countAll<string>().as('n')])
              .where(
                'rollout_id',
                'in',
                page.map((row) => row.id),
              )
              .groupBy(['rollout_id', 'state'])
              .execute();
      const body: RolloutList = {
        rollouts: page.map((row) => {
          const counts = rolloutCounts(
            counted
              .filter((count) => count.rollout_id === row.id)
              .map((count) => [count.state, Number(count.n)]),
          );
          return {
            ...rolloutFacts(row),
            devices: Object.values(counts).reduce((sum, n) => sum + n, 0),
            counts,
          };
        }),
        next: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
      };
      return c.json(body);
    },
  );

  app.get(
    '/:id',
    describeRoute({
      summary: "A rollout's state and each device's: how far it got, the version it runs, why it failed",
      tag: 'firmware',
      responses: {
        200: { description: 'The rollout', schema: rolloutSchema },
        404: { description: 'No such rollout, or one the caller may not see' },
      },
    }),
    validate('param', idParams),
    async (c) => {
      const rollout = await requireRollout(db, c.get('principal'), c.req.valid('param').id);
      const devices = await db
        .selectFrom('firmware_rollout_devices')
        .select(['serial', 'state', 'version', 'reason'])
        .where('rollout_id', '=', rollout.id)
        .orderBy('position')
        .execute();
      const body: Rollout = {
        ...rolloutFacts(rollout),
        devices: devices.map((d) => ({
          serial: d.serial,
          state: d.state,
          version: d.version,
          ...(d.reason ? { reason: d.reason } : {}),
        })),
      };
      return c.json(body);
    },
  );

  for (const [action, { from, to }] of Object.entries(STEERING)) {
    app.post(
      `/:id/${action}`,
      describeRoute({
        summary: `${action[0]?.toUpperCase()}${action.slice(1)} a rollout (from ${from.join(' or ')})`,
        tag: 'firmware',
        responses: {
          200: { description: `The rollout, ${to}`, schema: rolloutCreatedSchema },
          404: { description: 'No such rollout, or one the caller may not see' },
          409: { description: `rollout_state: the rollout is not ${from.join(' or ')}` },
        },
      }),
      validate('param', idParams),
      async (c) => {
        const principal = c.get('principal');
        const rollout = await requireRollout(db, principal, c.req.valid('param').id);
        const moved = await db
          .updateTable('firmware_rollouts')
          .set({ state: to, updated_at: sql<Date>`now()` })
          .where('id', '=', rollout.id)
          .where('state', 'in', [...from])
          .returning('id')
          .executeTakeFirst();
        if (!moved) {
          const now = await requireRollout(db, principal, rollout.id);
          throw new ApiError(
            409,
            'rollout_state',
            `The rollout is ${now.state}; it can ${action} only when ${from.join(' or ')}`,
          );
        }
        await auditRollout(db, rollout.id, to, { userId: principal.id });
        ctx.rollouts.kick();
        return c.json({ id: rollout.id, state: to });
      },
    );
  }
  return app;
}
