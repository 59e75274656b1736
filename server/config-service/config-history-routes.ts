import { Hono } from 'hono';
import { sql } from 'kysely';
import {
  type ConfigChange,
  type ConfigHistoryEntry,
  type ConfigHistoryPage,
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
import { readBody, readInput } from '../http/validate.ts';
import { limitChecks } from '../limits/request-limits.ts';

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

  app.post('/fleet/devices/:serial/config-history', async (c) => {
    const receivedAt = Date.now();
    const serial = readInput(c.req.param('serial'), serialParam, 'serial');
    const principal = c.get('principal');
    const device = await requireConfiguringRight(
      ctx.db,
      principal,
      serial,
      'Recording configuration history',
    );
    await hitRateLimit(
      ctx.db,
      limitChecks('history-write', {
        historyWritePerUser: principal.id,
        historyWritePerDevice: device.id,
        historyWritePerAddress: clientAddress(c, ctx.env.TRUST_PROXY),
      }),
    );
    const record = await readBody(c, configHistoryRecordSchema);
    const writtenAt = boundedWrittenAt(record.writtenAt, receivedAt);
    await sql`
      INSERT INTO config_history (id, serial, user_id, user_email, transport, template_name, written_at, changes)
      VALUES (${record.id}, ${serial}, ${principal.id}, ${principal.email}, ${record.transport},
              ${record.template ?? null}, ${writtenAt.toISOString()}, ${JSON.stringify(record.changes)}::jsonb)
      ON CONFLICT (id) DO NOTHING`.execute(ctx.db);
    const stored = await sql<HistoryRow>`SELECT ${ROW} FROM config_history WHERE id = ${record.id}`.execute(
      ctx.db,
    );
    const row = stored.rows[0];
    // The same id sent again (the offline queue retrying) is the same record; another device's is not.
    if (!row || row.serial !== serial || row.user_id !== principal.id)
      throw new ApiError(409, 'history_conflict', 'A different history record already has this id', 'id');
    return c.json(toEntry(row), 201);
  });

  app.get('/fleet/devices/:serial/config-history', async (c) => {
    const serial = readInput(c.req.param('serial'), serialParam, 'serial');
    const query = readInput(
      { cursor: c.req.query('cursor') || undefined, pageSize: c.req.query('pageSize') },
      configHistoryQuerySchema,
      'query',
    );
    const viewer = c.get('principal');
    const device = await deviceRights(ctx.db, viewer, serial);
    // A device taken off its site keeps its history, for company staff to read.
    if (!device?.sees && !(await staffReadsRetired(ctx.db, viewer, serial))) throw notFound('Device');
    await hitRateLimit(
      ctx.db,
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
  });

  return app;
}
