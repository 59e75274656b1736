import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviceAnswerSchema,
  type OnlineDevices,
  SIMULATED_DEVICES_FILE,
  simulatedDevicesFileSchema,
} from '../../contracts/service-comms.ts';
import { generateSigningKey } from '../../server/auth/signing-keys.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import { freePort } from '../free-port.ts';
import { freshDatabase, PASSWORDS } from './harness.ts';
import { connectDevice } from './service-comms-devices.ts';

/**
 * Two configuration-service processes (`--service config`) on one PostgreSQL: a device connected
 * to one answers a command sent to the other, through LISTEN/NOTIFY. Needs a real PostgreSQL:
 * `.ci/run` sets TEST_DATABASE_URL for the server suite; PGlite serves one process only.
 */
const DATABASE = process.env.TEST_DATABASE_URL;
const ROOT = new URL('../..', import.meta.url).pathname;

interface Process {
  child: ChildProcess;
  origin: string;
  output: string;
}

async function startProcess(env: Record<string, string>): Promise<Process> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--service', 'config'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started: Process = { child, origin: `http://127.0.0.1:${port}`, output: '' };
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      started.output += chunk.toString();
      if (started.output.includes('Fleet Manager listening on')) resolve();
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${started.output}`)));
  });
  return started;
}

async function call(origin: string, method: string, path: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'api-key': 'dev-api-key' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe.skipIf(!DATABASE)('two server processes on one PostgreSQL', () => {
  let a: Process;
  let b: Process;
  let dataDir: string;
  let drop: () => Promise<void> = async () => {};
  let device: SocketDevice | undefined;
  let token: string;
  let serialNumber: string;

  beforeAll(async () => {
    const database = await freshDatabase();
    drop = database.drop;
    if (!('url' in database.target)) throw new Error('TEST_DATABASE_URL is set but gave no database');
    dataDir = mkdtempSync(join(tmpdir(), 'fleet-two-processes-'));
    // One signing key for both, as a deployment behind a load balancer would have.
    const { privateJwk } = await generateSigningKey();
    const env = {
      DATABASE_URL: database.target.url,
      DATA_DIR: dataDir,
      SIGNING_KEY: JSON.stringify(privateJwk),
      SEED_DEMO: '1',
      SEED_DEMO_HISTORY: '0',
      SIMULATED_DEVICES: '0',
      SERVICE_COMMS_TIMEOUT_MS: '5000',
    };
    a = await startProcess(env);
    b = await startProcess(env);
    const demo = simulatedDevicesFileSchema.parse(
      JSON.parse(readFileSync(join(dataDir, SIMULATED_DEVICES_FILE), 'utf8')),
    ).devices[0];
    if (!demo) throw new Error('the seed kept no simulated device');
    serialNumber = demo.serialNumber;
    device = await connectDevice(a.origin, demo);
    const [main_email, password] = PASSWORDS.admin;
    const login = await call(b.origin, 'POST', '/config/auth/v2/login', { main_email, password });
    token = (login.body as { access_token: string }).access_token;
  }, 120_000);

  afterAll(async () => {
    await device?.stop();
    for (const p of [a, b]) if (p && p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.all(
      [a, b].map((p) =>
        p && p.child.exitCode === null ? new Promise((r) => p.child.once('exit', r)) : null,
      ),
    );
    rmSync(dataDir, { recursive: true, force: true });
    await drop();
  }, 60_000);

  it('lists the device held by process A as online on process B', async () => {
    const online = await call(b.origin, 'GET', '/config/service-comms/devices/online', undefined, token);
    expect(online.status).toBe(200);
    expect((online.body as OnlineDevices).devices.map((d) => d.serialNumber)).toContain(serialNumber);
  });

  it('answers a command sent to process B with the answer of the device connected to A', async () => {
    const codec = await loadCodec();
    const answer = await call(
      b.origin,
      'POST',
      '/config/service-comms/command',
      { serialNumber, data: [...codec.buildFrame(0x01, 255)] },
      token,
    );
    expect(answer.status).toBe(200);
    const body = deviceAnswerSchema.parse(answer.body);
    expect(body.data[0]).toBe(0x81);
    expect(() => codec.verifyFrame(Uint8Array.from(body.data), 255)).not.toThrow();
    // A held the socket: the frame went through PostgreSQL, not through B's memory.
    expect(a.output).toContain(`${serialNumber}`);
    expect(b.output).not.toContain(`${serialNumber} (`);
  });

  it('answers 409 on B once the device has left A', async () => {
    await device?.stop();
    device = undefined;
    const codec = await loadCodec();
    const offline = async () =>
      (
        await call(
          b.origin,
          'POST',
          '/config/service-comms/command',
          { serialNumber, data: [...codec.buildFrame(0x01, 255)] },
          token,
        )
      ).status;
    await expect.poll(offline).toBe(409);
  });
});

describe.skipIf(DATABASE)('two server processes on one PostgreSQL', () => {
  it.skip('skipped: set TEST_DATABASE_URL to a PostgreSQL (as .ci/run does) to run two processes on it', () => {});
});
