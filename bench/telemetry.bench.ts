// Telemetry at scale (`npm run bench:telemetry`, never in CI): 5,000 simulated devices take a
// reading every second (5,000 readings/s offered) and send it over the device socket (binary
// form; `--json` for JSON) for 2 minutes into PostgreSQL 15; then the server's CPU per stored
// reading (its own CPU counters over the window), the count check (nothing lost), p99 from taken
// to stored (acknowledged), the rate the store path takes readings at beside a bare COPY of the
// same rows, and a 30-day chart of one device among 1,000 devices × 30 days of rollups.
// `--profile file.cpuprofile` profiles the server over the window. Shorter for a quick look:
//   npm run bench:telemetry -- --seconds 30 --devices 2000 --chart-devices 100
// The earlier shape (10,000 devices, a reading every 10 s): -- --devices 10000 --interval 10
// Only the window (CPU per reading, counts, p99; no store-path replay, no charts): --window-only
// PostgreSQL: DATABASE_URL, else a throwaway PostgreSQL 15 cluster of its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../server/db/database.ts';
import { migrate } from '../server/db/migrations.ts';
import { seedDemo } from '../server/db/seed.ts';
import { ensurePartitions } from '../server/monitoring/telemetry/partitions.ts';
import { ProductCatalogue } from '../server/monitoring/telemetry/product-catalogue.ts';
import type { Reading } from '../server/monitoring/telemetry/read-frame.ts';
import { STEP_FLUSH_MS, StepBuffer } from '../server/monitoring/telemetry/step-buffer.ts';
import { storeBatch } from '../server/monitoring/telemetry/store-batch.ts';
import { loadCodec } from '../src/codec/load-node.ts';
import { bundledFleet } from '../src/device-sim/online/bundled-fleet.ts';
import { sampledLiveValues } from '../src/device-sim/online/sampled-live-values.ts';
import { SocketDevice } from '../src/device-sim/online/socket-device.ts';
import { freePort } from '../tests/free-port.ts';
import { inspectorUrl, RemoteProfiler, saveProfile } from './cpu-profile.ts';
import { SERVER_NODE_FLAGS } from './server-flags.ts';
import { benchSerial, seedBenchDevices, seedChartRollups } from './telemetry-seed.ts';
import { benchPostgres, stopOnSignals } from './throwaway-postgres.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    devices: { type: 'string', default: '5000' },
    /** Seconds between a device's readings (TELEMETRY_INTERVAL_S): 5,000 devices × 1 s = 5,000 readings/s. */
    interval: { type: 'string', default: '1' },
    /**
     * Seconds between a device's real samples of its live values; the readings between send the
     * last sample at their own time (a real sample costs the simulator milliseconds: at 5,000 a
     * second it would need more cores than the machine has). 0: a real sample every reading.
     */
    'sample-every': { type: 'string', default: '300' },
    /** Devices send JSON telemetry instead of the binary form. */
    json: { type: 'boolean', default: false },
    probes: { type: 'string', default: '100' },
    'chart-devices': { type: 'string', default: '1000' },
    'chart-days': { type: 'string', default: '30' },
    'chart-requests': { type: 'string', default: '300' },
    /** Write a CPU profile of the server over the measured window to this file, and summarise it. */
    profile: { type: 'string' },
    /** Stop after the window's figures (CPU per reading, counts, p99): no store-path replay, no charts. */
    'window-only': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const DEVICES = Number(args.devices);
const PROBES = Math.min(Number(args.probes), DEVICES);
const CHART_DEVICES = Math.min(Number(args['chart-devices']), DEVICES);
const CHART_DAYS = Number(args['chart-days']);
const CHART_REQUESTS = Number(args['chart-requests']);
const INTERVAL_S = Number(args.interval);
const SAMPLE_EVERY_S = Number(args['sample-every']);
/** When the measured window began (epoch ms): probe readings taken before it are not timed. */
let windowStart = Number.POSITIVE_INFINITY;
const ROOT = new URL('..', import.meta.url).pathname;
const figures: { name: string; value: number; unit: string }[] = [];

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** CPU seconds (user + system) of a process, from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of each PostgreSQL process (the postmaster and its children), by pid. */
function postgresCpu(): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.includes('(postgres)') || stat.includes('(postmaster)'))
        cpu.set(Number(name), cpuSeconds(Number(name)));
    } catch {
      // gone meanwhile
    }
  }
  return cpu;
}

/** CPU seconds PostgreSQL spent between two looks (a process that ended meanwhile is not counted). */
function postgresCpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of postgresCpu()) total += seconds - (before.get(pid) ?? 0);
  return total;
}

function startServer(
  env: Record<string, string>,
  inspect = false,
): Promise<{ child: ChildProcess; port: number; inspector?: Promise<string> }> {
  return freePort().then(
    (port) =>
      new Promise((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            ...(inspect ? ['--inspect=127.0.0.1:0'] : []),
            ...SERVER_NODE_FLAGS,
            '--import',
            'tsx',
            'server/main.ts',
          ],
          {
            cwd: ROOT,
            env: { ...process.env, ...env, PORT: String(port) },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        const inspector = inspect && child.stderr ? inspectorUrl(child.stderr) : undefined;
        let output = '';
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Fleet Manager listening on'))
            resolve({ child, port, ...(inspector ? { inspector } : {}) });
        };
        child.stdout?.on('data', read);
        child.stderr?.on('data', (chunk: Buffer) => {
          read(chunk);
          const text = chunk.toString();
          if (/failed|error/i.test(text)) process.stderr.write(`[server] ${text}`);
        });
        child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
      }),
  );
}

/** Sign in as the bench's installer and answer a monitoring access token. */
async function monitoringToken(base: string): Promise<string> {
  const headers = { 'content-type': 'application/json', 'api-key': 'dev-api-key' };
  const login = await fetch(`${base}/config/auth/v2/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ main_email: 'installer@solarpros.example', password: 'Installer#2026' }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const monitoring = await fetch(`${base}/monitoring/auth/v2/configurator-login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: 'installer@solarpros.example', access_token }),
  });
  return ((await monitoring.json()) as { access_token: string }).access_token;
}

async function main(): Promise<void> {
  log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const postgres = await benchPostgres({ statementStats: true });
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  const dbName = `fleet_bench_${randomBytes(4).toString('hex')}`;
  const replayName = `${dbName}_replay`;
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.query(`CREATE DATABASE ${replayName}`);
  const urlOf = (name: string) => {
    const url = new URL(postgres.url);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'fleet-bench-telemetry-'));
  const children: ChildProcess[] = [];
  const probes: SocketDevice[] = [];
  // Interrupted: the server and simulators go first, then the cluster (its own exit handler).
  process.prependListener('exit', () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });
  try {
    const server = await startServer(
      {
        DATABASE_URL: urlOf(dbName),
        DATA_DIR: dataDir,
        SEED_DEMO: '1',
        SIMULATED_DEVICES: '0',
        TRUST_PROXY: '1',
        TELEMETRY_INTERVAL_S: String(INTERVAL_S),
        LOGIN_LIMIT_PER_ACCOUNT: '1000000',
        LOGIN_LIMIT_PER_ADDRESS: '1000000',
      },
      args.profile !== undefined,
    );
    children.push(server.child);
    const profiler = server.inspector ? await RemoteProfiler.connect(await server.inspector) : undefined;
    const base = `http://127.0.0.1:${server.port}`;
    const db = new pg.Client({ connectionString: urlOf(dbName) });
    // Dropped with its database when a run fails: the failure is the one to report, not this.
    db.on('error', (error) => log(`run connection: ${error.message}`));
    await db.connect();
    const secret = randomBytes(32).toString('base64url');
    const ids = await seedBenchDevices(db, DEVICES, secret);
    log(`${DEVICES} devices registered on ${Math.ceil(DEVICES / 10)} sites`);

    // The simulated devices, in one process of their own; the last PROBES in this one, timed.
    const simulated = DEVICES - PROBES;
    const url = `ws://127.0.0.1:${server.port}/config/service-comms/devices/ws`;
    let stats = {
      readingsTaken: 0,
      messagesSent: 0,
      kept: 0,
      offlineAtStop: 0,
      disconnects: {} as Record<string, number>,
    };
    if (simulated > 0) {
      const sim = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/device-sim/online/simulate-cli.ts',
          '--count',
          String(simulated),
          '--serial',
          benchSerial(0),
          '--model',
          'HX-5000',
          // One argument: a random secret may begin with '-', which parseArgs takes for an option.
          `--secret=${secret}`,
          '--url',
          url,
          '--stats',
          '--spread-addresses',
          '--sample-every',
          String(SAMPLE_EVERY_S),
          ...(args.json ? [] : ['--binary']),
        ],
        {
          cwd: ROOT,
          env: { ...process.env, TELEMETRY_INTERVAL_S: String(INTERVAL_S) },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      children.push(sim);
      createInterface({ input: sim.stdout }).on('line', (line) => {
        if (line.startsWith('{')) stats = JSON.parse(line) as typeof stats;
      });
    }
    const fleet = await bundledFleet();
    // From taken to acknowledged (the ack comes once its batch committed), for readings taken
    // during the window.
    const latencies: number[] = [];
    let measuring = false;
    for (let k = 0; k < PROBES; k++) {
      const serial = benchSerial(simulated + k);
      const probe = new SocketDevice({
        url,
        serialNumber: serial,
        modelId: 'HX-5000',
        secret,
        log: () => {},
        firstTelemetryMs: Math.random() * INTERVAL_S * 1000,
        headers: { 'x-forwarded-for': `10.250.${k >> 8}.${k & 255}` },
        ...(args.json ? {} : { binary: true }),
        device: sampledLiveValues(fleet.device(serial), SAMPLE_EVERY_S * 1000),
        onAcknowledged: (readings, at) => {
          for (const reading of readings)
            if (measuring && reading.takenAt >= windowStart) latencies.push(at - reading.takenAt);
        },
      });
      probe.start();
      probes.push(probe);
    }

    const connectStart = Date.now();
    for (;;) {
      const online = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_presence');
      const n = online.rows[0]?.n ?? 0;
      if (n >= DEVICES) break;
      if (Date.now() - connectStart > 15 * 60_000)
        throw new Error(`only ${n} of ${DEVICES} devices connected`);
      await sleep(2000);
    }
    const connectSeconds = (Date.now() - connectStart) / 1000;
    log(`all ${DEVICES} devices online after ${connectSeconds.toFixed(1)} s; ten seconds to settle`);
    await sleep(Math.max(10, INTERVAL_S) * 1000);

    const storedNow = async () =>
      (
        await db.query<{ n: number }>(
          'SELECT coalesce(sum(count), 0)::int AS n FROM telemetry_counts WHERE kind = $1',
          ['stored'],
        )
      ).rows[0]?.n ?? 0;
    const startStored = await storedNow();
    const cpu0 = {
      server: cpuSeconds(server.child.pid ?? 0),
      sim: cpuSeconds(children[1]?.pid ?? 0),
      pg: postgresCpu(),
    };
    await profiler?.start();
    const t0 = Date.now();
    windowStart = t0;
    measuring = true;
    log(
      `measuring for ${SECONDS} s: ${DEVICES} devices × a reading every ${INTERVAL_S} s (${(DEVICES / INTERVAL_S).toFixed(0)} readings/s offered, ${args.json ? 'JSON' : 'binary'}; live values sampled ${SAMPLE_EVERY_S > 0 ? `every ${SAMPLE_EVERY_S} s` : 'every reading'})`,
    );
    for (let left = SECONDS; left > 0; left -= 30) {
      await sleep(Math.min(30, left) * 1000);
      const sorted = [...latencies].sort((a, b) => a - b);
      log(
        `  ${Math.round((Date.now() - t0) / 1000)} s: ${(await storedNow()) - startStored} stored, p99 so far ${quantile(sorted, 0.99).toFixed(0)} ms`,
      );
    }
    measuring = false;
    const elapsed = (Date.now() - t0) / 1000;
    const storedInWindow = (await storedNow()) - startStored;
    const cpu = {
      server: (cpuSeconds(server.child.pid ?? 0) - cpu0.server) / elapsed,
      sim: (cpuSeconds(children[1]?.pid ?? 0) - cpu0.sim) / elapsed,
      pg: postgresCpuSince(cpu0.pg) / elapsed,
    };
    if (profiler && args.profile) {
      const profile = await profiler.stop();
      profiler.close();
      console.log(
        saveProfile(profile, args.profile, [
          'storeBatch',
          'accept',
          'readFrame',
          'receive',
          'receiveBinary',
          'afterReadings',
          'look',
          'foldRollups',
          'parse',
        ]),
      );
      log(`CPU profile of the server over the window written to ${args.profile}`);
    }

    // Stop the devices: no more readings; what they kept is sent and acknowledged first.
    const simExit = children[1]
      ? new Promise((resolve) => children[1]?.once('exit', resolve))
      : Promise.resolve();
    children[1]?.kill('SIGTERM');
    for (const probe of probes) probe.stopReadings();
    const probeDeadline = Date.now() + 30_000;
    while (probes.some((p) => p.kept > 0) && Date.now() < probeDeadline) await sleep(200);
    await Promise.all(probes.map((probe) => probe.stop()));
    await simExit;
    let stored = -1;
    for (;;) {
      await sleep(2000);
      const now = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM telemetry_raw WHERE device_id = ANY($1::int[])',
        [ids],
      );
      const n = now.rows[0]?.n ?? 0;
      if (n === stored) break;
      stored = n;
    }
    const counts = await db.query<{ kind: string; n: number }>(
      'SELECT kind, sum(count)::int AS n FROM telemetry_counts GROUP BY kind ORDER BY kind',
    );
    const count = (kind: string) => counts.rows.find((row) => row.kind === kind)?.n ?? 0;
    const sent = stats.readingsTaken + probes.reduce((n, probe) => n + probe.readingsTaken, 0);
    const refused = counts.rows
      .filter((row) => !['stored', 'duplicate', 'clock_ahead'].includes(row.kind))
      .reduce((n, row) => n + row.n, 0);
    const lost = sent - stored - refused;
    const sorted = latencies.sort((a, b) => a - b);
    const serverUsPerReading = storedInWindow > 0 ? (cpu.server * elapsed * 1e6) / storedInWindow : 0;
    log(
      `taken ${sent}, stored ${stored}, refused ${refused}, sent again and stored once ${count('duplicate')}, lost ${lost}`,
    );
    log(`counts: ${counts.rows.map((row) => `${row.kind} ${row.n}`).join(', ')}`);
    // What explains readings sent again or lost: sockets closed unasked (and why), and what the
    // devices still kept when they stopped (a device offline then never sent it).
    const disconnects = { ...stats.disconnects };
    for (const probe of probes)
      for (const [cause, n] of probe.disconnects) disconnects[cause] = (disconnects[cause] ?? 0) + n;
    const causes = Object.entries(disconnects).sort((a, b) => b[1] - a[1]);
    log(
      `devices' sockets closed unasked: ${causes.length === 0 ? 'none' : causes.map(([cause, n]) => `${n} × ${cause}`).join('; ')}; at the stop ${stats.offlineAtStop} simulated devices were offline, and the simulated devices still kept ${stats.kept} readings, never sent`,
    );
    log(
      `taken → stored (acknowledged; ${sorted.length} probe readings): p50 ${quantile(sorted, 0.5).toFixed(0)} ms, p99 ${quantile(sorted, 0.99).toFixed(0)} ms (target ≤ 2,000), max ${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
    );
    log(
      `server CPU per stored reading: ${serverUsPerReading.toFixed(0)} µs (target ≤ 100)${profiler ? '; profiled, the profiler adds a little' : ''}`,
    );
    log(
      `stored ${(storedInWindow / elapsed).toFixed(0)} readings/s of ${(DEVICES / INTERVAL_S).toFixed(0)} offered; CPU: server ${(cpu.server * 100).toFixed(0)} %, devices ${(cpu.sim * 100).toFixed(0)} %, PostgreSQL ${(cpu.pg * 100).toFixed(0)} % of one core`,
    );
    figures.push(
      { name: 'devices', value: DEVICES, unit: 'devices' },
      { name: 'interval', value: INTERVAL_S, unit: 's' },
      { name: 'connect.all', value: Number(connectSeconds.toFixed(1)), unit: 's' },
      { name: 'taken', value: sent, unit: 'readings' },
      { name: 'stored', value: stored, unit: 'readings' },
      { name: 'refused', value: refused, unit: 'readings' },
      { name: 'lost', value: lost, unit: 'readings' },
      { name: 'ingest.rate', value: Math.round(storedInWindow / elapsed), unit: 'readings/s' },
      { name: 'taken-to-stored.p50', value: Math.round(quantile(sorted, 0.5)), unit: 'ms' },
      { name: 'taken-to-stored.p99', value: Math.round(quantile(sorted, 0.99)), unit: 'ms' },
      { name: 'taken-to-stored.max', value: Math.round(sorted.at(-1) ?? 0), unit: 'ms' },
      { name: 'cpu.server', value: Math.round(cpu.server * 100), unit: '% of a core' },
      { name: 'cpu.server.per-reading', value: Math.round(serverUsPerReading), unit: 'µs' },
      { name: 'cpu.devices', value: Math.round(cpu.sim * 100), unit: '% of a core' },
      { name: 'cpu.postgres', value: Math.round(cpu.pg * 100), unit: '% of a core' },
    );

    if (args['window-only']) {
      await db.end();
      for (const figure of figures) console.log(JSON.stringify(figure));
      return;
    }
    await replayAndCopy(db, urlOf(replayName), ids, postgres.local);

    // The chart: 30 days of one device's power, among CHART_DEVICES devices × CHART_DAYS days of rollups.
    log(`seeding ${CHART_DAYS} days of rollups for ${CHART_DEVICES} devices`);
    const kysely = openDatabase({ url: urlOf(dbName) }, 2);
    await ensurePartitions(kysely, Date.now() - (CHART_DAYS + 1) * 86_400_000, Date.now());
    await kysely.destroy();
    const chartIds = ids.slice(0, CHART_DEVICES);
    const seeded = await seedChartRollups(db, chartIds, CHART_DAYS, (done) => {
      if (done % 200 === 0) log(`  ${done} devices`);
    });
    await db.query('ANALYZE telemetry_5m');
    await db.query('ANALYZE telemetry_1d');
    const rollupRows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM telemetry_5m');
    log(`${seeded} 5-minute rollups written (${rollupRows.rows[0]?.n} in the table)`);
    const token = await monitoringToken(base);
    for (const [name, days] of [
      ['chart-30d', 30],
      ['chart-24h', 1],
      ['chart-1y', 365],
    ] as const) {
      const times: number[] = [];
      let points = 0;
      const requests = name === 'chart-30d' ? CHART_REQUESTS : Math.ceil(CHART_REQUESTS / 3);
      for (let i = -20; i < requests; i++) {
        const serial = benchSerial(Math.floor(Math.random() * CHART_DEVICES));
        const to = new Date().toISOString();
        const from = new Date(Date.now() - days * 86_400_000).toISOString();
        const started = performance.now();
        const answer = await fetch(
          `${base}/monitoring/devices/${serial}/series?metric=pvPower&from=${from}&to=${to}`,
          {
            headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' },
          },
        );
        const body = (await answer.json()) as { points?: unknown[]; step?: string };
        if (!answer.ok) throw new Error(`${name}: ${answer.status} ${JSON.stringify(body)}`);
        if (i >= 0) {
          times.push(performance.now() - started);
          points = body.points?.length ?? 0;
        }
      }
      times.sort((a, b) => a - b);
      log(
        `${name}: ${points} points, p50 ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms (${times.length} requests)`,
      );
      figures.push(
        { name: `${name}.points`, value: points, unit: 'points' },
        { name: `${name}.p50`, value: Number(quantile(times, 0.5).toFixed(1)), unit: 'ms' },
        { name: `${name}.p95`, value: Number(quantile(times, 0.95).toFixed(1)), unit: 'ms' },
      );
    }
    await db.end();
  } finally {
    await Promise.all(probes.map((probe) => probe.stop()));
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map((child) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : null)),
    );
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${replayName} WITH (FORCE)`).catch(() => {});
    await admin.end();
    postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  for (const figure of figures) console.log(JSON.stringify(figure));
}

/**
 * The store path at full speed beside a bare COPY, on the same rows in a database of their own:
 * every reading the run stored, fed through storeBatch (raw rows, rollups, latest) in batches of
 * 2,000 as fast as it takes them; then the same raw rows with COPY into a table of the same key.
 */
async function replayAndCopy(
  run: pg.Client,
  replayUrl: string,
  ids: number[],
  local: boolean,
): Promise<void> {
  const replay = openDatabase({ url: replayUrl }, 4);
  await migrate(replay);
  await seedDemo(replay, { N: 1024, r: 8, p: 1 });
  const client = new pg.Client({ connectionString: replayUrl });
  client.on('error', (error) => log(`replay connection: ${error.message}`));
  await client.connect();
  await seedBenchDevices(client, ids.length, 'replay-secret-not-used');
  const rows = await run.query<{
    device_id: number;
    t: number;
    r: number;
    flags: number;
    vals: Record<string, number>;
  }>(
    `SELECT device_id, (extract(epoch FROM device_time) * 1000)::float8 AS t,
            (extract(epoch FROM received_at) * 1000)::float8 AS r, flags, vals
     FROM telemetry_raw WHERE device_id = ANY($1::int[]) ORDER BY received_at`,
    [ids],
  );
  const readings: Reading[] = rows.rows.map((row) => ({
    deviceId: row.device_id,
    serial: '',
    modelId: 'HX-5000',
    deviceTime: Math.round(row.t),
    receivedAt: Math.round(row.r),
    flags: row.flags,
    values: row.vals,
  }));
  if (readings.length === 0) return;
  // Not Math.min(...times): a run's hundreds of thousands of arguments overflow the stack.
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { deviceTime } of readings) {
    first = Math.min(first, deviceTime);
    last = Math.max(last, deviceTime);
  }
  await ensurePartitions(replay, first, last);
  const catalogue = new ProductCatalogue(await loadCodec(), 'public');
  await catalogue.load();
  // What each statement of the store path costs the database (a cluster of its own loads
  // pg_stat_statements): counted from here, for the replay's database only.
  if (local) {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('SELECT pg_stat_statements_reset()');
  }
  // As the ingest stores them: each batch judged at the time its readings came, the 5-minute steps
  // it holds back merged every STEP_FLUSH_MS of that time and once one has ended, and at the end
  // (all counted).
  let clock = readings[0]?.receivedAt ?? 0;
  let mergedAt = clock;
  let merges = 0;
  const steps = new StepBuffer(() => clock);
  const started = performance.now();
  for (let i = 0; i < readings.length; i += 2000) {
    const batch = readings.slice(i, i + 2000);
    clock = batch.at(-1)?.receivedAt ?? clock;
    await storeBatch(replay, batch, (model) => catalogue.product(model)?.spec, undefined, steps);
    if (clock - mergedAt >= STEP_FLUSH_MS || clock >= steps.endsAt) {
      merges += 1;
      await steps.flush(replay);
      mergedAt = clock;
    }
  }
  await steps.flush(replay);
  const storeRate = readings.length / ((performance.now() - started) / 1000);
  log(
    `store path (raw + rollups + latest), ${readings.length} readings in batches of 2,000, held 5-minute steps merged ${merges + 1} times: ${storeRate.toFixed(0)} readings/s`,
  );
  figures.push({ name: 'store-path.rate', value: Math.round(storeRate), unit: 'readings/s' });
  if (local) await logStatementTimes(client, readings.length);
  if (!local) {
    log('bare COPY skipped: it needs a PostgreSQL of its own (unset DATABASE_URL)');
  } else {
    const file = join(tmpdir(), `fleet-bench-copy-${randomBytes(4).toString('hex')}.copy`);
    await run.query(
      `COPY (SELECT device_id, device_time, received_at, flags, vals FROM telemetry_raw WHERE device_id = ANY('{${ids.join(',')}}'::int[])) TO '${file}'`,
    );
    // Three times, each into a table of its own, and the middle rate: one COPY's rate moved by half
    // between runs minutes apart on a shared machine.
    const rates: number[] = [];
    for (let i = 0; i < 3; i++) {
      await client.query(`CREATE TABLE copy_target_${i} (LIKE telemetry_raw INCLUDING ALL)`);
      const copyStarted = performance.now();
      await client.query(`COPY copy_target_${i} FROM '${file}'`);
      rates.push(readings.length / ((performance.now() - copyStarted) / 1000));
    }
    rmSync(file, { force: true });
    const copyRate = [...rates].sort((a, b) => a - b)[1] as number;
    log(
      `bare COPY of the same ${readings.length} raw rows into a table of the same key, three times: ${rates.map((rate) => rate.toFixed(0)).join(', ')} rows/s; the middle one, ${copyRate.toFixed(0)} rows/s (store path: ${((storeRate / copyRate) * 100).toFixed(0)} % of it)`,
    );
    figures.push(
      { name: 'bare-copy.rate', value: Math.round(copyRate), unit: 'rows/s' },
      { name: 'store-path.vs-copy', value: Number((storeRate / copyRate).toFixed(3)), unit: 'ratio' },
    );
  }
  await client.end();
  await replay.destroy();
}

/**
 * The replay's statements by the database's time per reading (`pg_stat_statements`, its database
 * only), the costliest first: where the store path's time goes, beside the rate.
 */
async function logStatementTimes(client: pg.Client, readings: number): Promise<void> {
  const rows = await client.query<{ query: string; calls: number; ms: number }>(
    `SELECT query, calls::int AS calls, total_exec_time AS ms FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND query NOT ILIKE '%pg_stat_statements%'
     ORDER BY total_exec_time DESC LIMIT 6`,
  );
  log('the store path in the database, per reading (pg_stat_statements, the costliest statements):');
  for (const row of rows.rows) {
    const perReading = (row.ms * 1000) / readings;
    const text = row.query.replace(/\s+/g, ' ').slice(0, 90);
    log(`  ${perReading.toFixed(1).padStart(6)} µs  ${String(row.calls).padStart(5)} calls  ${text}`);
  }
}

stopOnSignals();
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
