import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { deviceSocketCommandSchema } from '../../contracts/service-comms.ts';
import { PASSWORDS } from './harness.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

/**
 * What an attacker or a broken device can send, thrown at the REAL server process
 * (`server/main.ts`): random request targets and headers on raw TCP upgrade requests, random
 * hellos and random messages on the device socket, and random answers from a device that holds a
 * valid secret. After every run the process must still be running and answering HTTP. The run
 * counts are modest so the suite stays quick; raise them locally to search harder. Every
 * counterexample found is kept as a fixed example that runs before the random ones.
 */
const RUNS = { upgrades: 60, hellos: 60, messages: 25, answers: 25 };
const API_KEY = 'device-socket-property-key';
const DEVICE_PATH = '/config/service-comms/devices/ws';

let server: ServerProcess;
let port = 0;
let devices: ReturnType<ServerProcess['demoDevices']>;
let adminToken = '';

beforeAll(async () => {
  // TRUST_PROXY=1: each socket says it comes from an address of its own, so the per-address limit
  // on hellos does not turn every later run into the same refusal.
  server = await startServerProcess({ API_KEY, TRUST_PROXY: '1', SERVICE_COMMS_TIMEOUT_MS: '300' });
  port = Number(new URL(server.origin).port);
  devices = server.demoDevices();
  const [main_email, password] = PASSWORDS.admin;
  const login = await fetch(`${server.origin}/config/auth/v2/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'api-key': API_KEY },
    body: JSON.stringify({ main_email, password }),
  });
  adminToken = ((await login.json()) as { access_token: string }).access_token;
}, 120_000);
afterAll(() => server?.stop(), 60_000);

/** The process is still running and still answers an HTTP call. */
async function stillServing(): Promise<void> {
  expect(server.running(), server.output()).toBe(true);
  const answer = await fetch(`${server.origin}/config/openapi.json`);
  expect(answer.status).toBe(200);
  await answer.arrayBuffer();
}

let nextAddress = 0;
/** A documentation address (198.18.0.0/15) of its own for each socket. */
const freshAddress = () => {
  nextAddress += 1;
  return `198.18.${(nextAddress >> 8) & 255}.${nextAddress & 255}`;
};

/** Send a raw request over TCP; resolves once the server answered its head, closed, or 2 s passed. */
function rawRequest(target: string, headers: [string, string][]): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done, 2000);
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    const lines = [`GET ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...headers.map(([n, v]) => `${n}: ${v}`)];
    socket.write(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'));
  });
}

/** A device socket from an address of its own; resolves once it is open. */
function openSocket(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}${DEVICE_PATH}`, {
      headers: { 'x-forwarded-for': freshAddress() },
    });
    socket.on('error', () => {});
    socket.once('open', () => resolve(socket));
    socket.once('close', () => reject(new Error('closed before it opened')));
  });
}

/** Resolves with the first message, or `closed`, or `silent` after `ms`. */
function firstReaction(socket: WebSocket, ms = 2000): Promise<unknown> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('silent'), ms);
    socket.once('message', (raw) => {
      clearTimeout(timer);
      resolve(raw.toString());
    });
    socket.once('close', (code) => {
      clearTimeout(timer);
      resolve({ closed: code });
    });
  });
}

/** Wait until the service has read everything sent so far: it answers a ping only after it. */
function roundTrip(socket: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.readyState !== WebSocket.OPEN) return resolve();
    const timer = setTimeout(resolve, 2000);
    const finish = () => {
      clearTimeout(timer);
      resolve();
    };
    socket.once('pong', finish);
    socket.once('close', finish);
    socket.ping();
  });
}

/** A device of the demo, online with its valid secret. */
async function onlineDevice(index: number): Promise<WebSocket> {
  const device = devices[index % devices.length];
  if (!device) throw new Error('the seed kept no simulated device');
  const socket = await openSocket();
  socket.send(JSON.stringify({ type: 'hello', ...device }));
  const reaction = await firstReaction(socket);
  expect(String(reaction)).toContain('welcome');
  return socket;
}

const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('json'), { maxKeys: 4 }),
  ),
}));

/** Text of any code points (lone surrogates included), and text of many-byte characters. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom('€', '😀', '\ud800', 'é', 'a', '\n', '"'), maxLength: 80 }),
);

describe('raw upgrade requests', () => {
  const piece = fc.constantFrom(
    '/',
    '//',
    'a',
    ':',
    '99999',
    ':0',
    '?',
    '#',
    '%',
    '%zz',
    '%00',
    '@',
    '[',
    ']',
    '[::1',
    '.',
    '..',
    '\\',
    'config',
    'service-comms',
    'devices',
    'ws',
    'http:',
    '*',
    '€',
  );
  const target = fc.oneof(
    fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
    fc.array(piece, { maxLength: 4 }).map((parts) => `${DEVICE_PATH}${parts.join('')}`),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }),
    fc.constantFrom('*', `http://127.0.0.1${DEVICE_PATH}`, `//127.0.0.1${DEVICE_PATH}`),
  );
  const headerText = fc.oneof(
    fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
    fc.string({
      unit: fc.constantFrom('a', '1', ',', ';', '=', '"', ' ', '\t', '\\', 'é', '\r\n', ':'),
      maxLength: 30,
    }),
    fc.constantFrom('', '13', 'dGhlIHNhbXBsZSBub25jZQ==', 'permessage-deflate; client_max_window_bits=99'),
  );
  const headerName = fc.oneof(
    fc.constantFrom('x-forwarded-for', 'content-length', 'transfer-encoding', 'origin', 'cookie', 'host'),
    fc.string({ unit: fc.constantFrom('a', 'z', '-', '_', 'X', '0'), minLength: 1, maxLength: 12 }),
  );
  const headers = fc
    .record({
      connection: fc.oneof(fc.constantFrom('Upgrade', 'upgrade, keep-alive', 'close'), headerText),
      upgrade: fc.oneof(fc.constantFrom('websocket', 'WebSocket', 'h2c'), headerText),
      version: fc.oneof(fc.constant('13'), headerText),
      key: fc.oneof(fc.constant('dGhlIHNhbXBsZSBub25jZQ=='), headerText),
      extensions: fc.option(headerText, { nil: undefined }),
      protocol: fc.option(headerText, { nil: undefined }),
      extra: fc.array(fc.tuple(headerName, headerText), { maxLength: 4 }),
    })
    .map((h): [string, string][] => [
      ['Connection', h.connection],
      ['Upgrade', h.upgrade],
      ['Sec-WebSocket-Version', h.version],
      ['Sec-WebSocket-Key', h.key],
      ...(h.extensions === undefined ? [] : [['Sec-WebSocket-Extensions', h.extensions] as [string, string]]),
      ...(h.protocol === undefined ? [] : [['Sec-WebSocket-Protocol', h.protocol] as [string, string]]),
      ...h.extra,
    ]);
  const upgrade: [string, string][] = [
    ['Connection', 'Upgrade'],
    ['Upgrade', 'websocket'],
    ['Sec-WebSocket-Version', '13'],
    ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ=='],
  ];

  it('never stop the process, whatever the target and headers', async () => {
    await fc.assert(
      fc.asyncProperty(target, headers, async (path, list) => {
        await rawRequest(path, list);
        await stillServing();
      }),
      {
        numRuns: RUNS.upgrades,
        // Found by hand: `new URL()` of a protocol-relative target with a bad port threw inside
        // the upgrade listener, and nothing caught it.
        examples: [
          ['//a:99999/', upgrade],
          ['//[::1/', upgrade],
          [`${DEVICE_PATH}?%zz`, upgrade],
          ['*', upgrade],
        ],
      },
    );
  });
});

describe('hellos on the device socket', () => {
  it('never stop the process, whatever the first message', async () => {
    const serials = devices.map((d) => d.serialNumber);
    const ownSecret = fc
      .record({
        device: fc.constantFrom(...devices),
        modelId: fc.oneof(anyText, fc.constant('€'.repeat(32))),
      })
      .map(({ device, modelId }) => JSON.stringify({ type: 'hello', ...device, modelId }));
    const helloShaped = fc
      .record(
        {
          type: fc.oneof(fc.constant('hello'), json),
          serialNumber: fc.oneof(fc.constantFrom(...serials, 'HX5K-24-999999'), anyText, json),
          modelId: fc.oneof(fc.constantFrom('HX-5000', 'BX-10', 'E1-40'), anyText, json),
          secret: fc.oneof(fc.constantFrom(...devices.map((d) => d.secret)), anyText, json),
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value));
    const first = fc.oneof(
      { arbitrary: ownSecret, weight: 3 },
      { arbitrary: helloShaped, weight: 4 },
      json.map((value) => JSON.stringify(value)),
      anyText,
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    );
    const crasher = devices[0]
      ? JSON.stringify({ type: 'hello', ...devices[0], modelId: '€'.repeat(32) })
      : '';
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(first, async (message) => {
        const socket = await openSocket();
        socket.send(message);
        const reaction = await firstReaction(socket);
        if (typeof reaction === 'object') refused += 1;
        socket.terminate();
        await stillServing();
      }),
      {
        numRuns: RUNS.hellos,
        // A device with a valid secret whose hello named a model of 32 × '€': the close reason
        // quoted it, 96 bytes of it made the reason longer than 123 bytes, and `ws` threw.
        examples: [[crasher]],
      },
    );
    // Refused hellos are logged summarised: the first of each kind in a minute, not one line each.
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('refused device'));
    expect(refused).toBeGreaterThan(20);
    expect(lines.length).toBeLessThanOrEqual(10);
  });
});

describe('messages after a valid hello', () => {
  it('never stop the process, whatever the device sends', async () => {
    const message = fc.oneof(
      fc
        .record({
          type: fc.constant('answer'),
          id: fc.oneof(fc.nat(), json),
          data: fc.oneof(json, fc.array(fc.integer())),
        })
        .map((value) => JSON.stringify(value)),
      json.map((value) => JSON.stringify(value)),
      anyText,
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 5 }), async (messages) => {
        const socket = await onlineDevice(run++);
        for (const m of messages) socket.send(m);
        await roundTrip(socket);
        socket.terminate();
        await stillServing();
      }),
      { numRuns: RUNS.messages },
    );
  });
});

describe('answers from a device with a valid secret', () => {
  /** How the device reacts to one command. */
  const reaction = fc.oneof(
    fc.record({
      kind: fc.constant('answer' as const),
      data: fc.oneof(json, fc.array(fc.integer({ min: -2, max: 300 }), { maxLength: 600 })),
    }),
    fc.record({ kind: fc.constant('wrong-id' as const), id: fc.oneof(fc.integer(), json) }),
    fc.record({
      kind: fc.constant('junk' as const),
      text: fc.oneof(
        anyText,
        json.map((v) => JSON.stringify(v)),
      ),
    }),
    fc.constant({ kind: 'twice' as const }),
    fc.constant({ kind: 'silent' as const }),
    fc.constant({ kind: 'close' as const }),
  );

  it('never stop the process, and the caller gets an answer, 409 or 504, never a 500', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(reaction, async (how) => {
        const index = run++;
        const socket = await onlineDevice(index);
        socket.on('message', (raw) => {
          const command = deviceSocketCommandSchema.safeParse(JSON.parse(raw.toString()));
          if (!command.success) return;
          const { id } = command.data;
          const answer = (data: unknown, answerId: unknown = id) =>
            socket.send(JSON.stringify({ type: 'answer', id: answerId, data }));
          if (how.kind === 'answer') answer(how.data);
          if (how.kind === 'wrong-id') answer(command.data.data, how.id);
          if (how.kind === 'junk') socket.send(how.text);
          if (how.kind === 'twice') {
            answer(command.data.data);
            answer([1, 2, 3]);
          }
          if (how.kind === 'close') socket.close();
        });
        const device = devices[index % devices.length];
        const response = await fetch(`${server.origin}/config/service-comms/command`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
          body: JSON.stringify({ serialNumber: device?.serialNumber, data: [1, 0, 0] }),
        });
        await response.arrayBuffer();
        expect([200, 409, 504]).toContain(response.status);
        socket.terminate();
        await stillServing();
      }),
      { numRuns: RUNS.answers },
    );
  });
});
