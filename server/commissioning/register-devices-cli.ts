import { readFile } from 'node:fs/promises';
import { openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrations.ts';
import { EnvError, parseEnv } from '../env.ts';
import { catalogueIn } from '../service-comms/catalogue-commands.ts';
import { readManufacturingList, registerDevices } from './manufacturing-list.ts';

/**
 * `npm run devices:register -- <list.csv> [--replace]`: register a manufacturing list's serials
 * and claim codes (hashes only) in the deployment's database (`DATABASE_URL`, or the embedded
 * database in `DATA_DIR` while the server is stopped: PGlite serves one process at a time).
 */
async function main(argv: string[]): Promise<number> {
  const replace = argv.includes('--replace');
  const files = argv.filter((arg) => !arg.startsWith('--'));
  if (files.length !== 1 || argv.some((arg) => arg.startsWith('--') && arg !== '--replace')) {
    console.error('Usage: npm run devices:register -- <manufacturing-list.csv> [--replace]');
    return 2;
  }
  const env = parseEnv(process.env);
  const text = await readFile(files[0] as string, 'utf8');
  const reading = await readManufacturingList(text, catalogueIn(process.env.PUBLIC_DIR ?? 'public'));
  if (!reading.ok) {
    console.error(`${files[0]} was not registered:`);
    for (const problem of reading.problems.slice(0, 50)) console.error(`  ${problem}`);
    if (reading.problems.length > 50) console.error(`  … and ${reading.problems.length - 50} more`);
    return 1;
  }
  process.umask(0o077);
  const db = openDatabase(
    env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: `${env.DATA_DIR}/pglite` },
    1,
  );
  try {
    await migrate(db, { fallbackZone: env.TELEMETRY_TIME_ZONE });
    const done = await registerDevices(db, reading.devices, { replace });
    console.log(`Registered ${done.added} new device(s); ${done.same} were registered already.`);
    if (done.differing.length > 0)
      console.log(
        replace
          ? `${done.differing.length} registered with another model or code now have the list's: ${done.differing.slice(0, 10).join(', ')}`
          : `${done.differing.length} registered with another model or code were kept as they were (--replace takes the list's): ${done.differing.slice(0, 10).join(', ')}`,
      );
    return 0;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(1);
  },
);
