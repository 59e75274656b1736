// Telemetry through faults (`npm run chaos:telemetry -- [--devices N] [--seconds S]`): a throwaway
// PostgreSQL 15, Debian's HAProxy in front of three server processes, N simulated devices
// connecting through it over a link this run can cut. During the run one server process is killed
// with SIGKILL (and started again), PostgreSQL is restarted (`pg_ctl restart -m fast`), and every
// device's link is dropped for 30 s. Then the devices take no more readings and send what they
// kept, the servers stop and every 5-minute step is folded (which works out again from the raw rows
// what the killed process held and never merged). The run prints one line per fault and the
// totals — produced, stored, lost (produced and never stored), duplicates (stored twice), and the
// p99 from produced to stored (acknowledged) — and exits 1 if anything was lost or stored twice. 200 devices and 60 s run in CI (.ci/run); the
// figures in docs/api.md are from 5,000 devices and 10 minutes.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../server/db/database.ts';
import { foldRollups } from '../server/monitoring/telemetry/rollup-fold.ts';
import { FIVE_MINUTES_MS } from '../server/monitoring/telemetry/time-buckets.ts';
import { freePort } from '../tests/free-port.ts';
import { TcpLink } from '../tests/tcp-link.ts';
import type { FromDevices, ProducedFile, ToDevices } from './chaos/devices.ts';
import { startHaproxy } from './chaos/haproxy.ts';
import { SERVER_NODE_FLAGS } from './server-flags.ts';
import { seedBenchDevices } from './telemetry-seed.ts';
import { benchPostgres, stopOnSignals } from './throwaway-postgres.ts';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    interval: { type: 'string', default: '10' },
    /** Devices send the binary form of telemetry instead of JSON. */
    binary: { type: 'boolean', default: false },
  },
});
const DEVICES = Number(args.devices);
const SECONDS = Number(args.seconds);
const INTERVAL_S = Number(args.interval);
const LINK_DOWN_S = 30;
/** How long the devices have at the end to get everything they kept acknowledged. */
const DRAIN_MS = 180_000;
const ROOT = new URL('..', import.meta.url).pathname;

const started = Date.now();
const log = (line: string) =>
  console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One server process of the three, `--service config` (device sockets and their telemetry). */
class ServerProcess {
  child: ChildProcess | undefined;
  private log = '';

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
  ) {}

  /** Start it and resolve once it listens. */
  async start(extra: Record<string, string> = {}): Promise<void> {
    const child = spawn(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', 'server/main.ts', '--service', 'config'],
      {
        cwd: ROOT,
        env: { ...process.env, ...this.env, ...extra, PORT: String(this.port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        this.log += chunk.toString();
        if (this.log.length > 4_000_000) this.log = this.log.slice(-2_000_000);
        if (this.log.includes('Fleet Manager listening on')) resolve();
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('exit', (code, signal) => {
        writeFileSync(this.logFile, this.log);
        reject(new Error(`${this.name} exited (${code ?? signal}) before it listened`));
      });
    });
  }

  kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  saveLog(): void {
    writeFileSync(this.logFile, this.log);
  }
}

/** A fault: what, when it began and ended (epoch ms). */
interface Fault {
  name: string;
  from: number;
  to: number;
}

async function main(): Promise<number> {
  log(
    `${DEVICES} devices, ${SECONDS} s, a reading every ${INTERVAL_S} s (${args.binary ? 'binary' : 'JSON'}); load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const work = mkdtempSync(join(tmpdir(), 'fleet-chaos-'));
  const postgres = await benchPostgres();
  if (!postgres.local) throw new Error('the fault run restarts PostgreSQL: unset DATABASE_URL');
  const admin = (statement: string) => withClient(postgres.url, (client) => client.query(statement));
  const dbName = `fleet_chaos_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${dbName}`);
  const url = new URL(postgres.url);
  url.pathname = `/${dbName}`;
  const servers: ServerProcess[] = [];
  let haproxy: ReturnType<typeof startHaproxy> | undefined;
  let link: TcpLink | undefined;
  let devices: ChildProcess | undefined;
  let failed = true;
  try {
    for (const name of ['server 1', 'server 2', 'server 3'])
      servers.push(
        new ServerProcess(
          name,
          await freePort(),
          {
            DATABASE_URL: url.toString(),
            DATA_DIR: mkdtempSync(join(work, 'data-')),
            SIMULATED_DEVICES: '0',
            // Each device says an address of its own; HAProxy appends the one it saw.
            TRUST_PROXY: '2',
            TELEMETRY_INTERVAL_S: String(INTERVAL_S),
          },
          join(work, `${name.replace(' ', '-')}.log`),
        ),
      );
    // The first migrates and seeds the demo users; the bench's devices are the installer's.
    await servers[0]?.start({ SEED_DEMO: '1' });
    const secret = randomBytes(32).toString('base64url');
    const ids = await withClient(url.toString(), (db) => seedBenchDevices(db, DEVICES, secret));
    await Promise.all(servers.slice(1).map((server) => server.start()));
    const balancerPort = await freePort();
    // Each device one connection, and room for the health checks and a reconnect wave.
    haproxy = startHaproxy(
      work,
      balancerPort,
      servers.map((s) => s.port),
      DEVICES + 100,
    );
    link = await TcpLink.open(balancerPort);
    log(
      `three server processes behind HAProxy on :${balancerPort}; devices connect through a link on :${link.port}`,
    );

    const producedFile = join(work, 'produced.json');
    devices = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/chaos/devices.ts',
        '--url',
        `ws://127.0.0.1:${link.port}/config/service-comms/devices/ws`,
        '--count',
        String(DEVICES),
        // One argument: a random secret may begin with '-', which parseArgs takes for an option.
        `--secret=${secret}`,
        '--out',
        producedFile,
        '--interval',
        String(INTERVAL_S),
        ...(args.binary ? ['--binary'] : []),
      ],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    const fromDevices = (type: FromDevices['type'], timeoutMs: number) =>
      new Promise<FromDevices>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the devices did not say "${type}" in time`)),
          timeoutMs,
        );
        devices?.on('message', (message: FromDevices) => {
          if (message.type !== type) return;
          clearTimeout(timer);
          resolve(message);
        });
        devices?.once('exit', (code) => reject(new Error(`the devices' process exited (${code})`)));
      });
    await Promise.race([fromDevices('online', 10 * 60_000), haproxy.failed]);
    const t0 = Date.now();
    log(`all ${DEVICES} devices online; the run begins`);

    const faults: Fault[] = [];
    const at = (fraction: number) => sleep(Math.max(0, t0 + fraction * SECONDS * 1000 - Date.now()));
    // 1: a server process killed outright, started again a few seconds later.
    await at(1 / 6);
    const victim = servers[1] as ServerProcess;
    let from = Date.now();
    await victim.kill('SIGKILL');
    log(`fault: ${victim.name} killed (SIGKILL)`);
    await sleep(5000);
    await victim.start();
    faults.push({ name: `SIGKILL ${victim.name} (started again after 5 s)`, from, to: Date.now() });
    log(`${victim.name} listens again`);
    // 2: PostgreSQL restarted: every connection of every process cut.
    await at(2 / 6);
    from = Date.now();
    await postgres.restart();
    faults.push({ name: 'pg_ctl restart -m fast', from, to: Date.now() });
    log(`fault: PostgreSQL restarted in ${seconds(Date.now() - from)}`);
    // 3: every device's link down for 30 s.
    await at(Math.max(0.4, 1 - (LINK_DOWN_S + 5) / SECONDS));
    from = Date.now();
    link.cut();
    log(`fault: every link down for ${LINK_DOWN_S} s`);
    await sleep(LINK_DOWN_S * 1000);
    link.restore();
    faults.push({ name: `every link down for ${LINK_DOWN_S} s`, from, to: Date.now() });
    log('links back');
    await at(1);
    log('the devices take no more readings; waiting for what they kept to be acknowledged');
    const finish: ToDevices = { type: 'finish', waitMs: DRAIN_MS };
    const done = fromDevices('done', DRAIN_MS + 60_000);
    devices.send(finish);
    const { kept } = (await done) as Extract<FromDevices, { type: 'done' }>;
    if (kept > 0) log(`${kept} readings still unacknowledged after ${seconds(DRAIN_MS)}`);

    // Each process merges the 5-minute steps it holds as it stops; then every step is folded, and
    // the fold works out again from the raw rows what the killed process held and never merged.
    await Promise.all(servers.map((server) => server.kill('SIGTERM')));
    await withClient(url.toString(), (db) => stepsAgainstRawRows(db, ids));
    const db = openDatabase({ url: url.toString() }, 1);
    try {
      const folded = await foldRollups(db, Date.now() + 2 * FIVE_MINUTES_MS);
      log(`servers stopped; ${folded} 5-minute steps folded`);
    } finally {
      await db.destroy();
    }
    const produced = JSON.parse(readFileSync(producedFile, 'utf8')) as ProducedFile;
    failed = !(await withClient(url.toString(), (db) => report(db, ids, produced, faults, t0)));
    return failed ? 1 : 0;
  } finally {
    devices?.kill('SIGTERM');
    await link?.close();
    haproxy?.stop();
    await Promise.all(servers.map((server) => server.kill('SIGTERM')));
    for (const server of servers) server.saveLog();
    if (failed) log(`server logs kept in ${work}`);
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    postgres.stop();
    if (!failed) rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A connection for one piece of work, then closed: one held across the run would die with
 * PostgreSQL's restart (a fault of the run).
 */
async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * How many 5-minute steps count fewer readings than their raw rows (held by a process and lost
 * with it) or more (merged twice: a commit whose answer a fault cut off), before the fold.
 */
async function stepsAgainstRawRows(db: pg.Client, ids: number[]): Promise<void> {
  const { rows } = await db.query<{ short: number; over: number; steps: number }>(
    `SELECT count(*) FILTER (WHERE f.readings < r.n)::int AS short, count(*) FILTER (WHERE f.readings > r.n)::int AS over,
            count(*)::int AS steps
     FROM telemetry_5m f CROSS JOIN LATERAL (
       SELECT count(*) AS n FROM telemetry_raw r
       WHERE r.device_id = f.device_id AND r.device_time >= f.bucket AND r.device_time < f.bucket + interval '5 minutes') r
     WHERE f.device_id = ANY($1::int[])`,
    [ids],
  );
  const { short = 0, over = 0, steps = 0 } = rows[0] ?? {};
  log(
    `of ${steps} 5-minute steps, ${short} counted fewer readings than their raw rows and ${over} more, before the fold`,
  );
}

/** Compare what the devices produced with what the database holds; answers whether all is well. */
async function report(
  db: pg.Client,
  ids: number[],
  produced: ProducedFile,
  faults: Fault[],
  t0: number,
): Promise<boolean> {
  const rows = await db.query<{ device_id: number; t: number }>(
    'SELECT device_id, extract(epoch FROM device_time)::bigint AS t FROM telemetry_raw WHERE device_id = ANY($1::int[])',
    [ids],
  );
  const stored = new Map<number, Set<number>>();
  for (const row of rows.rows) {
    const times = stored.get(row.device_id) ?? new Set();
    times.add(Number(row.t));
    stored.set(row.device_id, times);
  }
  let total = 0;
  let found = 0;
  const latencies: number[] = [];
  const byFault = faults.map(() => [] as number[]);
  let unacknowledged = 0;
  for (const device of produced.devices) {
    const times = stored.get(ids[device.index] ?? -1);
    for (const [deviceTime, takenAt, ackedAt] of device.readings) {
      total += 1;
      if (times?.has(deviceTime)) found += 1;
      if (ackedAt === 0) {
        unacknowledged += 1;
        continue;
      }
      latencies.push(ackedAt - takenAt);
      // A fault's readings: taken while it lasted, or in the interval before it began.
      faults.forEach((fault, i) => {
        if (takenAt >= fault.from - INTERVAL_S * 1000 && takenAt <= fault.to)
          byFault[i]?.push(ackedAt - takenAt);
      });
    }
  }
  const unexpected = rows.rows.length - found;
  // A reading merged twice into its 5-minute step (stored twice as far as the charts go), or not at all.
  const rollups = await db.query<{ device_id: number; n: number }>(
    `SELECT device_id, sum((SELECT max(x) FROM unnest(n) x))::int AS n FROM telemetry_5m
     WHERE device_id = ANY($1::int[]) GROUP BY device_id`,
    [ids],
  );
  let duplicates = 0;
  let missingFromRollups = 0;
  const inRollups = new Map(rollups.rows.map((row) => [row.device_id, row.n]));
  for (const id of ids) {
    const difference = (inRollups.get(id) ?? 0) - (stored.get(id)?.size ?? 0);
    if (difference > 0) duplicates += difference;
    else missingFromRollups -= difference;
  }
  const counts = await db.query<{ kind: string; n: number }>(
    'SELECT kind, sum(count)::int AS n FROM telemetry_counts GROUP BY kind ORDER BY kind',
  );

  console.log('');
  faults.forEach((fault, i) => {
    const sorted = (byFault[i] ?? []).sort((a, b) => a - b);
    console.log(
      `fault at ${seconds(fault.from - t0)}: ${fault.name}, lasted ${seconds(fault.to - fault.from)}; its ${sorted.length} readings stored: p99 ${seconds(quantile(sorted, 0.99))}, max ${seconds(sorted.at(-1) ?? 0)} after they were taken`,
    );
  });
  const lost = total - found;
  latencies.sort((a, b) => a - b);
  console.log(
    `produced ${total}, stored ${found}, lost ${lost}, duplicates ${duplicates}, p99 produced → stored ${seconds(quantile(latencies, 0.99))} (p50 ${seconds(quantile(latencies, 0.5))}, max ${seconds(latencies.at(-1) ?? 0)}; from taken to acknowledged)`,
  );
  console.log(
    `messages sent ${produced.messagesSent} (${produced.messagesSent - total} sent again), dropped from full backlogs ${produced.backlogDropped}, never acknowledged ${unacknowledged}; the service counted ${counts.rows.map((row) => `${row.kind} ${row.n}`).join(', ')}`,
  );
  if (unexpected !== 0) console.log(`stored but never produced: ${unexpected}`);
  if (missingFromRollups > 0)
    console.log(`stored but missing from the 5-minute rollups: ${missingFromRollups}`);
  const ok = lost === 0 && duplicates === 0 && unexpected === 0 && missingFromRollups === 0;
  console.log(ok ? 'nothing lost, nothing stored twice' : 'FAILED: readings were lost or stored twice');
  return ok;
}

stopOnSignals();
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
