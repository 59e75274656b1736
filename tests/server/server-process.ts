import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  SIMULATED_DEVICES_FILE,
  type SimulatedDevicesFile,
  simulatedDevicesFileSchema,
} from '../../contracts/service-comms.ts';
import type { DatabaseTarget } from '../../server/db/database.ts';
import { freePort } from '../free-port.ts';
import { freshDatabase } from './harness.ts';
import { unpackMigrated } from './migrated-database.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

/** The real server process (`server/main.ts`) on a database and data folder of its own. */
export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  dataDir: string;
  /** The database it uses: the new one on TEST_DATABASE_URL, or PGlite in `dataDir`. */
  database: DatabaseTarget;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Whether the process is still running. */
  running(): boolean;
  /** The demo devices whose secrets the seed kept (`DATA_DIR/simulated-devices.json`). */
  demoDevices(): SimulatedDevicesFile['devices'];
  stop(): Promise<void>;
}

/**
 * Start `server/main.ts` with the demo seeded, on PGlite in a temporary folder or a new database
 * on TEST_DATABASE_URL, and resolve once it listens.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fleet-process-'));
  const database = await freshDatabase();
  const target = 'url' in database.target ? database.target : { pgliteDir: join(dataDir, 'pglite') };
  if ('pgliteDir' in target) unpackMigrated(target.pgliteDir);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: '1',
      // The demo's week of history is seconds of work a test of the process does not read.
      SEED_DEMO_HISTORY: '0',
      SIMULATED_DEVICES: '0',
      DATABASE_URL: 'url' in target ? target.url : '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const read = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.includes('Fleet Manager listening on')) resolve();
    };
    child.stdout?.on('data', check);
    void exited.then(() => reject(new Error(`server exited before it listened:\n${output}`)));
  });
  return {
    child,
    origin: `http://127.0.0.1:${port}`,
    dataDir,
    database: target,
    output: () => output,
    running,
    demoDevices: () =>
      simulatedDevicesFileSchema.parse(
        JSON.parse(readFileSync(join(dataDir, SIMULATED_DEVICES_FILE), 'utf8')),
      ).devices,
    stop: async () => {
      if (running()) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}
