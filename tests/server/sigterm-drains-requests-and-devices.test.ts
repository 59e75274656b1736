import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEVICE_CLOSE, deviceAckSchema } from '../../contracts/service-comms.ts';
import { siteSchema } from '../../contracts/sites.ts';
import { openDatabase } from '../../server/db/database.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import { PASSWORDS } from './harness.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { socketUrl } from './service-comms-devices.ts';
import { bundledConfig, telemetryFrame } from './telemetry-frames.ts';

const API_KEY = 'sigterm-test-api-key';
const BURST = 24;

let server: ServerProcess;
let origin = '';

/** Resolves once the server's output matches `pattern`. */
function printed(pattern: RegExp): Promise<void> {
  const { child } = server;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!pattern.test(server.output())) return;
      child.stdout?.off('data', check);
      resolve();
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) =>
      reject(new Error(`server exited (${code}) before ${pattern}:\n${server.output()}`)),
    );
    check();
  });
}

beforeAll(async () => {
  // The real server process (server/main.ts) on its own data: PGlite in a temporary folder, or a
  // new database on TEST_DATABASE_URL.
  server = await startServerProcess({ API_KEY });
  origin = server.origin;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/**
 * Start a write with `Expect: 100-continue` and resolve `started` once the server has read its
 * headers (it answered 100 Continue): from then on the request is in flight. The body is sent
 * when `send()` is called; `answer` resolves with the final status and body.
 */
function startWrite(path: string, token: string, body: unknown) {
  const text = JSON.stringify(body);
  let send = () => {};
  const started = new Promise<void>((resolve, reject) => {
    const req = request(`${origin}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        'api-key': API_KEY,
        authorization: `Bearer ${token}`,
        expect: '100-continue',
      },
    });
    req.once('continue', () => resolve());
    req.once('error', reject);
    send = () => req.end(text);
    answers.push(
      new Promise((done, fail) => {
        req.once('response', (res) => {
          let data = '';
          res.on('data', (chunk: Buffer) => {
            data += chunk.toString();
          });
          res.once('end', () => done({ status: res.statusCode ?? 0, body: data }));
        });
        req.once('error', fail);
      }),
    );
    req.flushHeaders();
  });
  return { started, send: () => send() };
}
const answers: Promise<{ status: number; body: string }>[] = [];

async function signIn(): Promise<string> {
  const [main_email, password] = PASSWORDS.installerA;
  const answer = await fetch(`${origin}/config/auth/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': API_KEY },
    body: JSON.stringify({ main_email, password }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

/**
 * A demo device online on the process, as a hand-driven socket: answers its acknowledgements as
 * they come, and how its socket closed.
 */
async function deviceOnline() {
  const demo = server.demoDevices()[0];
  if (!demo) throw new Error('the demo kept no device secrets');
  const socket = new WebSocket(socketUrl(origin));
  const acks: number[] = [];
  const welcomed = new Promise<void>((resolve) =>
    socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { type?: string };
      if (message.type === 'welcome') resolve();
      const ack = deviceAckSchema.safeParse(message);
      if (ack.success) acks.push(ack.data.seq);
    }),
  );
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'hello', ...demo }));
  await welcomed;
  return { socket, acks, closed, serial: demo.serialNumber };
}

describe('SIGTERM', () => {
  it('answers every request in flight, hands devices over, refuses new connections, then closes the database', async () => {
    const token = await signIn();
    const writes = Array.from({ length: BURST }, (_, i) =>
      startWrite('/config/sites', token, {
        name: `Shutdown burst ${i}`,
        displayAddress: `${i} Drain Street`,
        latitude: 10,
        longitude: 20,
      }),
    );
    await Promise.all(writes.map((write) => write.started));
    // A device sends readings; the process is told to stop before any is acknowledged.
    const device = await deviceOnline();
    const codec = await loadCodec();
    const config = bundledConfig('hybrid5k');
    // From now on: the demo history, where a start seeds it, ends when the server started, so a
    // window reaching back before now could hold seeded readings of this device too.
    const start = Math.floor(Date.now() / 1000) * 1000;
    const readings = 5;
    for (let seq = 1; seq <= readings; seq++)
      device.socket.send(
        JSON.stringify({ type: 'telemetry', seq, data: telemetryFrame(codec, config, start + seq * 1000) }),
      );
    // A pong comes after every message sent before the ping: the service has them all.
    await new Promise<void>((resolve) => {
      device.socket.once('pong', () => resolve());
      device.socket.ping();
    });

    const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await printed(/SIGTERM: no new connections/);
    // Shutdown has begun: a new connection is refused, while the writes still send their bodies.
    await expect(fetch(`${origin}/config/openapi.json`)).rejects.toThrow();
    for (const write of writes) write.send();

    const results = await Promise.all(answers);
    expect(results.map((result) => result.status)).toEqual(Array(BURST).fill(201));
    const names = results.map((result) => siteSchema.parse(JSON.parse(result.body)).name).sort();
    expect(new Set(names).size).toBe(BURST);
    // The device: everything it sent stored and acknowledged, then told to reconnect at once.
    expect(await device.closed).toBe(DEVICE_CLOSE.serviceRestart);
    expect(device.acks.at(-1)).toBe(readings);
    expect(await exited).toBe(0);
    expect(server.output()).toMatch(
      new RegExp(`Stopped: ${BURST} request\\(s\\) in flight finished, database closed`),
    );
    const db = openDatabase(server.database, 1);
    try {
      const rows = await db
        .selectFrom('telemetry_raw')
        .innerJoin('devices', 'devices.id', 'telemetry_raw.device_id')
        .select('telemetry_raw.device_time')
        .where('devices.serial', '=', device.serial)
        .where('telemetry_raw.device_time', '>=', new Date(start))
        .execute();
      expect(rows).toHaveLength(readings);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
