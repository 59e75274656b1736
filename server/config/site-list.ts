import type { Context } from 'hono';
import { type Kysely, sql } from 'kysely';
import type { SiteSortKey } from '../../contracts/list-sort-keys.ts';
import { type PageAnchors, readTotals, seesEverySite } from '../access/list-totals.ts';
import { likePattern, siteVisible, type Viewer } from '../access/scope.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import type { AuthVariables } from '../http/guards.ts';
import type { Paging } from '../http/paging.ts';
import { toSite } from '../mappers.ts';
import { listTarget } from './list-target.ts';

/** One page of a scope from key `from` on, each row carrying the scope's total and version. */
function pageFrom(db: Kysely<Database>, scope: number, everything: boolean, from: number, size: number) {
  const base = everything
    ? db.selectFrom('sites').where('sites.id', '>=', from)
    : db
        .selectFrom('site_access')
        .innerJoin('sites', 'sites.id', 'site_access.site_id')
        .where('site_access.user_id', '=', scope)
        .where('site_access.access', '=', true)
        .where('site_access.site_id', '>=', from)
        // Said of both sides, so the planner's merge join starts both index scans at the anchor.
        .where('sites.id', '>=', from);
  return base
    .selectAll('sites')
    .select((eb) => [
      eb.selectFrom('list_counts').select('sites').where('user_id', '=', scope).as('list_total'),
      eb.selectFrom('list_counts').select('version').where('user_id', '=', scope).as('list_version'),
    ])
    .orderBy('sites.id')
    .limit(size)
    .execute();
}

/**
 * Unfiltered lists of one scope: the total comes from the trigger-kept counts, and a page starts
 * at a remembered anchor key, so page 2,000 costs about what page 0 does. With the anchor known,
 * a page is one query; its rows say which version of the list they saw, and a page read
 * from an anchor of another version is read again the careful way. Answers that version, or
 * one read before the page.
 */
async function scopePage(
  db: Kysely<Database>,
  anchors: PageAnchors,
  target: Viewer,
  everything: boolean,
  paging: Paging,
) {
  const scope = everything ? 0 : target.id;
  const key = `site:${scope}`;
  const known = anchors.latestVersion(key);
  const guess =
    paging.offset === 0 ? 0 : known === undefined ? undefined : anchors.get(key, known, paging.offset);
  if (guess !== undefined) {
    const rows = await pageFrom(db, scope, everything, guess, paging.pageSize);
    const version = Number(rows[0]?.list_version ?? -1);
    if (rows.length > 0 && (paging.offset === 0 || version === known)) {
      anchors.saw(key, version);
      nextAnchor(anchors, key, version, paging, rows);
      return { rows, total: Number(rows[0]?.list_total ?? 0), version };
    }
  }
  const totals = await readTotals(db, scope);
  anchors.saw(key, totals.version);
  const empty = { rows: [], total: totals.sites, version: totals.version };
  if (paging.offset >= totals.sites) return empty;
  let anchor = anchors.get(key, totals.version, paging.offset);
  if (anchor === undefined) {
    const first = everything
      ? await db
          .selectFrom('sites')
          .select('id as key')
          .orderBy('id')
          .offset(paging.offset)
          .limit(1)
          .executeTakeFirst()
      : await db
          .selectFrom('site_access')
          .select('site_id as key')
          .where('user_id', '=', scope)
          .where('access', '=', true)
          .orderBy('site_id')
          .offset(paging.offset)
          .limit(1)
          .executeTakeFirst();
    if (!first) return empty;
    anchor = first.key;
    anchors.set(key, totals.version, paging.offset, anchor);
  }
  const rows = await pageFrom(db, scope, everything, anchor, paging.pageSize);
  nextAnchor(anchors, key, totals.version, paging, rows);
  return { rows, total: totals.sites, version: totals.version };
}

/** A full page leaves the next page's anchor behind, so paging on never walks the index again. */
function nextAnchor(
  anchors: PageAnchors,
  key: string,
  version: number,
  paging: Paging,
  rows: { id: number }[],
) {
  const last = rows.at(-1);
  if (last && rows.length === paging.pageSize)
    anchors.set(key, version, paging.offset + rows.length, last.id + 1);
}

/** What each sort key orders by: text case-insensitively (name and town indexed, migration 14). */
const SITE_ORDER = {
  name: sql`lower(sites.name)`,
  address: sql`lower(sites.display_address)`,
  locality: sql`lower(sites.locality)`,
  state: sql`lower(sites.state)`,
  id: sql`sites.id`,
} satisfies Record<SiteSortKey, unknown>;

/** Whether a list call reads the list in its own order (ids, ascending): the page cache's order. */
export const inListOrder = (paging: Paging) =>
  paging.sort === undefined || (paging.sort.key === 'id' && !paging.sort.descending);

/**
 * One page of sites, in id order or sorted on the server across every page (`?sort=`, ties
 * broken by id). `attachedOnly` lists the sites the user is attached to (`site-list`); otherwise
 * every site the user may see (`sites/all`). Searches, sorts, and lists seen through another
 * user's eyes, filter and count with indexed SQL.
 */
export async function listSites(
  ctx: ServerContext,
  c: Context<{ Variables: AuthVariables }>,
  list: { userId: number; attachedOnly: boolean; paging: Paging<SiteSortKey> },
): Promise<Response> {
  const { attachedOnly, paging } = list;
  const { caller, target } = await listTarget(ctx, c.get('principal'), list.userId);
  const page = { page: paging.page, pageSize: paging.pageSize };
  if (!paging.q && inListOrder(paging) && (caller.id === target.id || caller.role === 'admin')) {
    const everything = seesEverySite(target) && !attachedOnly;
    const key = `site:${everything ? 0 : target.id}:${paging.offset}:${paging.pageSize}`;
    const body = await ctx.lists.pages.json(
      key,
      () => readTotals(ctx.db, everything ? 0 : target.id).then((totals) => totals.version),
      async () => {
        const { rows, total, version } = await scopePage(
          ctx.db,
          ctx.lists.anchors,
          target,
          everything,
          paging,
        );
        return { page: { items: rows.map(toSite), ...page, total }, version };
      },
    );
    return c.body(body, 200, { 'content-type': 'application/json' });
  }
  let query = ctx.db.selectFrom('sites').where(siteVisible(target, attachedOnly));
  if (caller.id !== target.id && caller.role !== 'admin') query = query.where(siteVisible(caller));
  if (paging.q) {
    const pattern = likePattern(paging.q);
    // Name, address, the owner's name or e-mail, or the serial of a device at the site.
    query = query.where((eb) =>
      eb.or([
        eb('sites.name', 'ilike', pattern),
        eb('sites.display_address', 'ilike', pattern),
        eb.exists(
          eb
            .selectFrom('users')
            .select('users.id')
            .whereRef('users.id', '=', 'sites.owner_id')
            .where((u) =>
              u.or([u('users.display_name', 'ilike', pattern), u('users.main_email', 'ilike', pattern)]),
            ),
        ),
        eb.exists(
          eb
            .selectFrom('devices')
            .select('devices.id')
            .whereRef('devices.site_id', '=', 'sites.id')
            .where('devices.serial', 'ilike', pattern),
        ),
      ]),
    );
  }
  const direction = paging.sort?.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    query
      .selectAll('sites')
      .orderBy(SITE_ORDER[paging.sort?.key ?? 'id'], direction)
      .orderBy('sites.id', direction)
      .limit(paging.pageSize)
      .offset(paging.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return c.json({ items: rows.map(toSite), ...page, total: Number(count.total) });
}
