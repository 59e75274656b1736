import type { Kysely } from 'kysely';
import { seesEverything } from '../../contracts/access-policy.ts';
import type { Viewer } from '../access/scope.ts';
import type { Database } from '../db/schema.ts';

/** Totals kept by triggers for one user (0: everything) and a counter that moves on every change. */
export interface ListTotals {
  sites: number;
  devices: number;
  version: number;
}

/**
 * How many sites a viewer sees, as their list of every site they see counts them (the Sites
 * screen, Site Manager): every screen that shows this count reads it here.
 */
export async function visibleSiteTotal(db: Kysely<Database>, viewer: Viewer): Promise<number> {
  return (await readTotals(db, seesEverything(viewer) ? 0 : viewer.id)).sites;
}

/** Where a device sits in device-list order: its site id, then its own id. */
export type DeviceKey = readonly [siteId: number, deviceId: number];

/** Read the trigger-kept totals of a scope: one primary-key lookup instead of counting rows. */
export async function readTotals(db: Kysely<Database>, scope: number): Promise<ListTotals> {
  const row = await db
    .selectFrom('list_counts')
    .select(['sites', 'devices', 'version'])
    .where('user_id', '=', scope)
    .executeTakeFirst();
  return {
    sites: Number(row?.sites ?? 0),
    devices: Number(row?.devices ?? 0),
    version: Number(row?.version ?? 0),
  };
}

/**
 * Where deep pages start: the key at a given offset of a scope, remembered per version of that
 * scope. A change to the scope moves its version, so a stale anchor is never read again; any
 * process that misses simply computes the anchor once with an index-only scan. `K` is the sort
 * key of the list: a site id, or a (site id, device id) pair.
 */
export class PageAnchors<K = number> {
  readonly #anchors = new Map<string, K>();
  readonly #latest = new Map<string, number>();
  constructor(readonly capacity = 10_000) {}

  /** The newest version of a scope this process has seen, if any. */
  latestVersion(scope: string): number | undefined {
    return this.#latest.get(scope);
  }

  /** Note the version a query of a scope saw. */
  saw(scope: string, version: number): void {
    if (this.#latest.size >= this.capacity) this.#latest.clear();
    this.#latest.set(scope, version);
  }

  get(scope: string, version: number, offset: number): K | undefined {
    return this.#anchors.get(`${scope}:${version}:${offset}`);
  }

  set(scope: string, version: number, offset: number, key: K): void {
    if (this.#anchors.size >= this.capacity) this.#anchors.clear();
    this.#anchors.set(`${scope}:${version}:${offset}`, key);
  }
}
