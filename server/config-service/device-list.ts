import type { Kysely } from 'kysely';
import type { Device } from '../../contracts/devices.ts';
import type { Page } from '../../contracts/page.ts';
import type { Viewer } from '../access/scope.ts';
import type { DeviceKey, ListTotals, PageAnchors } from '../cache/list-totals.ts';
import type { Database } from '../db/schema.ts';
import type { Paging } from '../http/paging.ts';
import { toDevice } from '../mappers.ts';

/** Devices of a scope in (site id, device id) order, from key `from` on. */
function scoped(db: Kysely<Database>, scope: number, everything: boolean, from: DeviceKey) {
  const base = db.selectFrom('devices').innerJoin('sites', 'sites.id', 'devices.site_id');
  const inScope = everything
    ? base
    : base
        .innerJoin('site_access', 'site_access.site_id', 'devices.site_id')
        .where('site_access.user_id', '=', scope)
        .where('site_access.access', '=', true)
        .where('site_access.site_id', '>=', from[0]);
  // The bound is said of every joined table, so each merge-join input starts at the anchor.
  return inScope
    .where('devices.site_id', '>=', from[0])
    .where('sites.id', '>=', from[0])
    .where((eb) => eb(eb.refTuple('devices.site_id', 'devices.id'), '>=', eb.tuple(from[0], from[1])));
}

/** One page from key `from` on, each row carrying the scope's device total and version. */
function pageFrom(db: Kysely<Database>, scope: number, everything: boolean, from: DeviceKey, size: number) {
  return scoped(db, scope, everything, from)
    .selectAll('devices')
    .select('sites.name as site_name')
    .select((eb) => [
      eb.selectFrom('list_counts').select('devices').where('user_id', '=', scope).as('list_total'),
      eb.selectFrom('list_counts').select('version').where('user_id', '=', scope).as('list_version'),
    ])
    .orderBy('devices.site_id')
    .orderBy('devices.id')
    .limit(size)
    .execute();
}

/** The key of the device at `offset` of a scope and the version it was found in: an index-only walk. */
async function keyAt(db: Kysely<Database>, scope: number, everything: boolean, offset: number) {
  const walk = everything
    ? db.selectFrom('devices').select(['devices.site_id', 'devices.id'])
    : db
        .selectFrom('site_access')
        .innerJoin('devices', 'devices.site_id', 'site_access.site_id')
        .select(['devices.site_id', 'devices.id'])
        .where('site_access.user_id', '=', scope)
        .where('site_access.access', '=', true);
  const row = await walk
    .select((eb) =>
      eb.selectFrom('list_counts').select('version').where('user_id', '=', scope).as('list_version'),
    )
    .orderBy('devices.site_id')
    .orderBy('devices.id')
    .offset(offset)
    .limit(1)
    .executeTakeFirst();
  return row ? { key: [row.site_id, row.id] as const, version: Number(row.list_version) } : undefined;
}

/**
 * One page of the unfiltered device list of a scope (0: every device). Pages start at a
 * remembered anchor key, and each full page leaves the next page's anchor behind, so paging
 * on costs the same at any depth; an unknown anchor is found once per version of the scope.
 */
export async function scopeDevicePage(
  db: Kysely<Database>,
  anchors: PageAnchors<DeviceKey>,
  target: Viewer,
  everything: boolean,
  totals: ListTotals,
  paging: Paging,
): Promise<Page<Device>> {
  const scope = everything ? 0 : target.id;
  const key = `device:${scope}`;
  const page = { page: paging.page, pageSize: paging.pageSize, total: totals.devices };
  if (paging.offset >= totals.devices) return { items: [], ...page };
  const remembered =
    paging.offset === 0 ? ([0, 0] as const) : anchors.get(key, totals.version, paging.offset);
  let rows = remembered && (await pageFrom(db, scope, everything, remembered, paging.pageSize));
  // A remembered anchor is only good for the version it was found in: if the list moved since
  // the totals were read, find the anchor again in the list as it is now.
  if (!rows || (paging.offset > 0 && Number(rows[0]?.list_version ?? -1) !== totals.version)) {
    const found = await keyAt(db, scope, everything, paging.offset);
    if (found === undefined) return { items: [], ...page };
    anchors.set(key, found.version, paging.offset, found.key);
    rows = await pageFrom(db, scope, everything, found.key, paging.pageSize);
  }
  const first = rows[0];
  const last = rows.at(-1);
  if (first && last && rows.length === paging.pageSize)
    anchors.set(key, Number(first.list_version), paging.offset + rows.length, [last.site_id, last.id + 1]);
  if (first) page.total = Number(first.list_total ?? page.total);
  return { items: rows.map(toDevice), ...page };
}
