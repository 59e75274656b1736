import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  type ConfigChange,
  type ConfigHistoryEntry,
  type ConfigHistoryPage,
  configHistoryEntrySchema,
  configHistoryPageSchema,
  configHistoryQuerySchema,
  configHistoryRecordSchema,
  MAX_HISTORY_PAGE_BYTES,
  historySerialSchema as serialParam,
  WRITTEN_AT_BOUNDS,
} from '../../contracts/config-history.ts';
import { deviceRights, requireConfiguringRight } from '../access/device-access.ts';
import { hitRateLimit } from '../auth/rate-limit.ts';
import { staffReadsRetired } from '../commissioning/install-routes.ts';
import { readableInstallations } from '../commissioning/installations.ts';
import type { ServerContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { limitChecks } from '../limits/request-limits.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import { emitConfigurationWritten } from '../webhooks/events.ts';

const historyParams = z.object({ serial: serialParam });

interface HistoryRow {
  id: string;
  serial: string;
  user_id: number | null;
  user_email: string;
  transport: 'web-bluetooth' | 'simulated' | 'service-comms';
  template_name: string | null;
  written_at: Date | string;
  received_at: Date | string;
  /** Its place in the order received: where the next page starts. */
  position: string;
  changes: ConfigChange[] | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function toEntry(row: HistoryRow): ConfigHistoryEntry {
  return {
    id: row.id,
    serial: row.serial,
    userId: row.user_id ?? 0,
    userEmail: row.user_email,
    transport: row.transport,
    template: row.template_name,
    writtenAt: iso(row.written_at),
    receivedAt: iso(row.received_at),
    changes: typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes,
  };
}

const ROW = sql`id, serial, user_id, user_email, transport, template_name, written_at, received_at, changes,
  seq::text AS position`;

/**
 * The app's `writtenAt` as an instant the database holds, when it lies within the bounds around
 * the time the record was received (a few minutes ahead for a fast clock, a year back for the
 * offline queue).
 * @throws {ApiError} 400 naming `writtenAt`.
 */
function boundedWrittenAt(writtenAt: string, receivedAt: number): Date {
  const instant = new Date(writtenAt);
  const time = instant.getTime();
  const ahead = WRITTEN_AT_BOUNDS.aheadMs / 60_000;
  if (Number.isNaN(time) || time > receivedAt + WRITTEN_AT_BOUNDS.aheadMs)
    throw new ApiError(
      400,
      'invalid_input',
      `writtenAt: must not be more than ${ahead} minutes after the time the service received it`,
      'writtenAt',
    );
  if (time < receivedAt - WRITTEN_AT_BOUNDS.backMs)
    throw new ApiError(
      400,
      'invalid_input',
      'writtenAt: must not be more than a year before the time the service received it',
      'writtenAt',
    );
  return instant;
}

/**
 * Configuration history of a device: `POST` records what a verified Bluetooth write changed (only
 * those who may configure the device), `GET` reads it newest received first, a page at a time
 * (anyone who sees the device: the records of its installations at sites they see, company staff
 * every record; see `server/commissioning/installations.ts`).
 */
export function configHistoryRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();

  /**
   * Who may record, and how often, are checked before the body is read: a caller without the
   * right is refused whatever they sent.
   */
  const mayRecord = createMiddleware<{ Variables: AuthVariables }>(async (c, next) => {
    const principal = c.get('principal');
    const device = await requireConfiguringRight(
      ctx.db,
      principal,
      c.req.param('serial') ?? '',
      'Recording configuration history',
    );
    await hitRateLimit(
      ctx,
      limitChecks('history-write', {
        historyWritePerUser: principal.id,
        historyWritePerDevice: device.id,
        historyWritePerAddress: clientAddress(c, ctx.env.TRUST_PROXY),
      }),
    );
    await next();
  });

  app.post(
    '/fleet/devices/:serial/config-history',
    describeRoute({
      summary: 'Record what a verified Bluetooth write changed on a device',
      limits: ['historyWritePerUser', 'historyWritePerDevice', 'historyWritePerAddress'],
      tag: 'devices',
      example: {
        id: '0b6c3c1e-4a52-4d8e-9a43-3f1f0e6c2d11',
        writtenAt: '2026-11-23T10:15:00.000Z',
        transport: 'web-bluetooth',
        changes: [{ field: 'maxChargeCurrent', label: 'Max charge current', oldValue: '40', newValue: '35' }],
      },
      responses: {
        201: {
          description: 'The stored record (the same record again for an id already stored)',
          schema: configHistoryEntrySchema,
        },
        403: {
          description: 'The caller sees the device without the installer or configurator role on its site',
        },
        404: { description: 'No such device, or the caller may not see it' },
        409: { description: 'Another record already has this id' },
        429: { description: 'Too many records from this user, for this device or from this address' },
      },
    }),
    validate('param', historyParams),
    mayRecord,
    validate('json', configHistoryRecordSchema),
    async (c) => {
      const receivedAt = Date.now();
      const { serial } = c.req.valid('param');
      const principal = c.get('principal');
      const record = c.req.valid('json');
      const writtenAt = boundedWrittenAt(record.writtenAt, receivedAt);
      const inserted = await ctx.db.transaction().execute(async (trx) => {
        const added = await sql`
        INSERT INTO config_history (id, serial, user_id, user_email, transport, template_name, written_at, changes)
        VALUES (${record.id}, ${serial}, ${principal.id}, ${principal.email}, ${record.transport},
                ${record.template ?? null}, ${writtenAt.toISOString()}, ${JSON.stringify(record.changes)}::jsonb)
        ON CONFLICT (id) DO NOTHING RETURNING id`.execute(trx);
        if (added.rows.length > 0)
          await emitConfigurationWritten(trx, serial, {
            id: record.id,
            writtenAt: writtenAt.toISOString(),
            transport: record.transport,
            template: record.template ?? null,
            changes: record.changes,
          });
        return added.rows.length > 0;
      });
      if (inserted) ctx.webhooks.sender.kick();
      const stored = await sql<HistoryRow>`SELECT ${ROW} FROM config_history WHERE id = ${record.id}`.execute(
        ctx.db,
      );
      const row = stored.rows[0];
      // The same id sent again (the offline queue retrying) is the same record; another device's is not.
      if (!row || row.serial !== serial || row.user_id !== principal.id)
        throw new ApiError(409, 'history_conflict', 'A different history record already has this id', 'id');
      return c.json(toEntry(row), 201);
    },
  );

  app.get(
    '/fleet/devices/:serial/config-history',
    describeRoute({
      summary: "A device's configuration history, a page at a time, newest received first",
      limits: ['historyReadPerUser', 'historyReadPerAddress'],
      tag: 'devices',
      responses: {
        200: {
          description: 'One page of entries and where the next starts',
          schema: configHistoryPageSchema,
        },
        404: { description: 'No such device, or the caller may not see it' },
        429: { description: 'Too many reads from this user or address' },
      },
    }),
    validate('param', historyParams),
    validate('query', configHistoryQuerySchema),
    async (c) => {
      const { serial } = c.req.valid('param');
      const query = c.req.valid('query');
      const viewer = c.get('principal');
      const device = await deviceRights(ctx.db, viewer, serial);
      // A device taken off its site keeps its history, for company staff to read.
      if (!device?.sees && !(await staffReadsRetired(ctx.db, viewer, serial))) throw notFound('Device');
      await hitRateLimit(
        ctx,
        limitChecks('history-read', {
          historyReadPerUser: viewer.id,
          historyReadPerAddress: clientAddress(c, ctx.env.TRUST_PROXY),
        }),
      );
      const after = query.cursor ? sql`AND seq < ${query.cursor}::bigint` : sql``;
      // The serial's past as this reader may read it: the installations at sites they see.
      const readable = await readableInstallations(ctx.db, viewer, [serial]);
      const within = readable === 'all' ? sql`` : sql`AND installation_id = ANY(${readable}::int[])`;
      // One more than a page: whether there is a next one.
      const result = await sql<HistoryRow>`
      SELECT ${ROW} FROM config_history WHERE serial = ${serial} ${within} ${after}
      ORDER BY seq DESC LIMIT ${query.pageSize + 1}`.execute(ctx.db);
      const items: ConfigHistoryEntry[] = [];
      let bytes = 0;
      let last: HistoryRow | undefined;
      for (const row of result.rows.slice(0, query.pageSize)) {
        const entry = toEntry(row);
        bytes += JSON.stringify(entry).length;
        // A page ends before it grows past the cap; it always holds at least one entry.
        if (items.length > 0 && bytes > MAX_HISTORY_PAGE_BYTES) break;
        items.push(entry);
        last = row;
      }
      const more = result.rows.length > items.length;
      const body: ConfigHistoryPage = {
        items,
        nextCursor: more && last ? last.position : null,
      };
      return c.json(body);
    },
  );

  return app;
}
