import { Hono } from 'hono';
import { type Kysely, sql } from 'kysely';
import {
  type ConfigChange,
  type ConfigHistoryEntry,
  configHistoryRecordSchema,
  historySerialSchema as serialParam,
} from '../../contracts/config-history.ts';
import { siteVisible, type Viewer } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { readBody, readInput } from '../http/validate.ts';

/** Most entries one read returns; a device configured more often than that shows its latest. */
const HISTORY_LIMIT = 200;

interface HistoryRow {
  id: string;
  serial: string;
  user_id: number | null;
  user_email: string;
  transport: 'web-bluetooth' | 'simulated';
  written_at: Date | string;
  received_at: Date | string;
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
    writtenAt: iso(row.written_at),
    receivedAt: iso(row.received_at),
    changes: typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes,
  };
}

/**
 * The device with this serial, when the caller may see it (through a site they have access to).
 * @throws {ApiError} 404 when there is no such device or the caller may not see it: a serial the
 *   caller cannot see is not confirmed to exist.
 */
async function requireVisibleDevice(db: Kysely<Database>, viewer: Viewer, serial: string): Promise<void> {
  const row = await db
    .selectFrom('devices')
    .innerJoin('sites', 'sites.id', 'devices.site_id')
    .select('devices.id')
    .where('devices.serial', '=', serial)
    .where(siteVisible(viewer))
    .executeTakeFirst();
  if (!row) throw notFound('Device');
}

/**
 * Configuration history of a device: `POST` records what a verified Bluetooth write changed,
 * `GET` reads it newest first. The caller must see the device for either.
 */
export function configHistoryRoutes(ctx: ServerContext): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();

  app.post('/fleet/devices/:serial/config-history', async (c) => {
    const serial = readInput(c.req.param('serial'), serialParam, 'serial');
    const principal = c.get('principal');
    await requireVisibleDevice(ctx.db, principal, serial);
    const record = await readBody(c, configHistoryRecordSchema);
    await sql`
      INSERT INTO config_history (id, serial, user_id, user_email, transport, written_at, changes)
      VALUES (${record.id}, ${serial}, ${principal.id}, ${principal.email}, ${record.transport},
              ${record.writtenAt}, ${JSON.stringify(record.changes)}::jsonb)
      ON CONFLICT (id) DO NOTHING`.execute(ctx.db);
    const stored = await sql<HistoryRow>`SELECT * FROM config_history WHERE id = ${record.id}`.execute(
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
    await requireVisibleDevice(ctx.db, c.get('principal'), serial);
    const result = await sql<HistoryRow>`
      SELECT * FROM config_history WHERE serial = ${serial}
      ORDER BY written_at DESC, received_at DESC, id LIMIT ${HISTORY_LIMIT}`.execute(ctx.db);
    return c.json({ history: result.rows.map(toEntry) });
  });

  return app;
}
