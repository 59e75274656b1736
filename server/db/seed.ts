import { type Kysely, sql } from 'kysely';
import { hashPassword, type ScryptCost } from '../auth/passwords.ts';
import { joinCompanyOfAddress, membershipOf } from '../companies/memberships.ts';
import type { Database } from './schema.ts';
import {
  demoDeviceName,
  demoInstallDays,
  demoSerial,
  demoSite,
  SEED_MODELS,
  seededRandom,
} from './seed-places.ts';

/** A demo sign-in printed at start-up. */
export interface DemoAccount {
  email: string;
  password: string;
  role: 'admin' | 'installer' | 'owner';
  name: string;
}

/** The documented local-development sign-ins. */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: 'admin@fleet.example', password: 'FleetAdmin#2026', role: 'admin', name: 'Fleet Admin' },
  {
    email: 'installer@solarpros.example',
    password: 'Installer#2026',
    role: 'installer',
    name: 'Sam Solarpros',
  },
  { email: 'owner@homeowner.example', password: 'Owner#2026', role: 'owner', name: 'Olivia Homeowner' },
  {
    email: 'installer@brightvolt.example',
    password: 'Installer#2026',
    role: 'installer',
    name: 'Bea Brightvolt',
  },
];

const SITES_PER_INSTALLER = [70, 54];
const DAY_MS = 86_400_000;

/**
 * Whether a database gets the demo users (whose passwords are published): as `SEED_DEMO` says
 * when set, else only the embedded database of a start that is not production, never a
 * PostgreSQL given by `DATABASE_URL` and never anything with `NODE_ENV=production`.
 * @example wantsDemoSeed(undefined, true, true) // false: production on PGlite seeds nothing
 */
export function wantsDemoSeed(
  seedDemo: boolean | undefined,
  embedded: boolean,
  production: boolean,
): boolean {
  return seedDemo ?? (embedded && !production);
}

/**
 * Fill an empty database with the demo users, 124 sites and their devices. Does nothing when
 * users exist already; an advisory lock keeps two starting processes from both seeding.
 */
export async function seedDemo(db: Kysely<Database>, cost: ScryptCost): Promise<boolean> {
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((account) => hashPassword(account.password, cost)));
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(7261002)`.execute(trx);
    const existing = await trx.selectFrom('users').select('id').limit(1).execute();
    if (existing.length > 0) return false;
    const ids: number[] = [];
    for (const [index, account] of DEMO_ACCOUNTS.entries()) {
      const row = await trx
        .insertInto('users')
        .values({
          main_email: account.email,
          display_name: account.name,
          role: account.role,
          password_hash: hashes[index] ?? null,
          created_by: ids[0] ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const [, installerA, ownerId, installerB] = ids as [number, number, number, number];
    await trx.insertInto('user_installers').values({ user_id: ownerId, installer_id: installerA }).execute();
    // Each installer runs the company of their e-mail domain (Solarpros, Brightvolt).
    const companyOf = new Map<number, number | null>();
    for (const [index, id] of ids.entries()) {
      const account = DEMO_ACCOUNTS[index];
      if (account?.role !== 'installer') continue;
      await joinCompanyOfAddress(trx, { id, main_email: account.email, display_name: account.name });
      companyOf.set(id, (await membershipOf(trx, id))?.companyId ?? null);
    }
    const random = seededRandom(2026);
    let n = 0;
    let serial = 100;
    for (const [which, installerId] of [installerA, installerB].entries()) {
      for (let i = 0; i < (SITES_PER_INSTALLER[which] ?? 0); i += 1) {
        const owned = which === 0 && i < 3;
        const site = await trx
          .insertInto('sites')
          .values({
            ...demoSite(n, random),
            installer_id: installerId,
            owner_id: owned ? ownerId : null,
            company_id: companyOf.get(installerId) ?? null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const access = [
          { site_id: site.id, user_id: installerId, roles: ['installer', 'configurator'], access: true },
        ];
        if (owned) access.push({ site_id: site.id, user_id: ownerId, roles: ['owner'], access: true });
        await trx.insertInto('site_access').values(access).execute();
        const devices = Array.from({ length: 1 + (n % 3) }, (_, k) => {
          const model = SEED_MODELS[(n + k) % SEED_MODELS.length] ?? SEED_MODELS[0];
          serial += 1 + Math.floor(random() * 40);
          return {
            model_id: model.modelId,
            serial: demoSerial(model.prefix, 24 + ((n + k) % 2), serial),
            name: demoDeviceName(model.kind, n + k),
            site_id: site.id,
            // Installed a month to two years ago, before any demo history (a week at most).
            installed_at: new Date(Date.now() - demoInstallDays(n, k) * DAY_MS),
          };
        });
        await trx.insertInto('devices').values(devices).execute();
        n += 1;
      }
    }
    return true;
  });
}
