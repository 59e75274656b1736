import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestParam } from 'xstate/graph';
import { createTestModel } from 'xstate/graph';
import { type Alarm, alarmPageSchema } from '../../contracts/monitoring.ts';
import { neverConnectedCondition } from '../../server/monitoring/alarms/alarm-rules.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import type { Codec } from '../../src/codec/types.ts';
import { alarmLifecycleModel } from '../machines/alarm-lifecycle-model.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { bundledConfig, telemetryFrame } from './telemetry-frames.ts';

/**
 * Every path of the alarm lifecycle model (tests/machines/alarm-lifecycle-model.ts), for each kind
 * of alarm, run against the real rules: readings go through the ingest (the catalogue's codes and
 * limits, stored and evaluated as from a device socket), silence through the offline sweep, and
 * acknowledging through the API. Each state is checked in the stored alarms, their transitions
 * and their mail. The service's clock is the test's: readings carry their time of receipt, one
 * second apart, and the sweep is told when it runs; nothing waits.
 */
const OFFLINE_AFTER_S = 60;
const hybrid = bundledConfig('hybrid5k');
// biome-ignore lint/suspicious/noExplicitAny: TestParam is generic over the model's snapshot and events
type Params = TestParam<any, any>;

let t: TestServer;
let codec: Codec;
let adminToken = '';
/** Devices no path has used yet. */
let unused: { id: number; serial: string }[] = [];
/** The test's clock: every reading one second after the one before. */
let clock = Date.now() - 3_600_000;

beforeAll(async () => {
  t = await startTestServer({ ALARM_OFFLINE_AFTER_S: String(OFFLINE_AFTER_S) });
  codec = await loadCodec();
  const config = (await t.login('admin')).access_token;
  const login = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
    body: { username: 'admin@fleet.example', access_token: config },
  });
  adminToken = (login.body as { access_token: string }).access_token;
  // The installers of every site want alarm mail; the owner does not.
  await t.server.ctx.db
    .updateTable('users')
    .set({ alarm_mail: true })
    .where('role', '=', 'installer')
    .execute();
  unused = await t.server.ctx.db
    .selectFrom('devices')
    .select(['id', 'serial'])
    .where('model_id', '=', 'HX-5000')
    .orderBy('id')
    .execute();
});
afterAll(() => t.close());

/** How each kind of alarm starts and ends, as a device lives it. */
interface Kind {
  name: string;
  rule: string;
  /** Readings that keep the condition, as the device sends them while it holds. */
  holding: Record<string, number>;
  starts(device: DeviceUnderTest): Promise<void>;
  ends(device: DeviceUnderTest): Promise<void>;
}

interface DeviceUnderTest {
  id: number;
  serial: string;
  /** Send a reading (normal values but those given) and let the service store and judge it. */
  send(values?: Record<string, number>): Promise<void>;
}

const KINDS: Kind[] = [
  {
    name: 'a fault code',
    rule: 'status:faultCode=3',
    holding: { faultCode: 3 },
    starts: (d) => d.send({ faultCode: 3 }),
    ends: (d) => d.send({ faultCode: 0 }),
  },
  {
    name: 'a limit (state of charge below 10 %, clearing at 12 %)',
    rule: 'threshold:batterySoc<',
    // Back above the limit but not yet at 12 %: it holds.
    holding: { batterySoc: 11 },
    starts: (d) => d.send({ batterySoc: 8 }),
    ends: (d) => d.send({ batterySoc: 40 }),
  },
  {
    name: 'silence',
    rule: 'offline',
    holding: {},
    starts: async () => {
      // The service watches through the silence, looking every 20 s as it does with this limit
      // (from now: a first look after a long pause starts its watch again).
      const { alarms } = t.server.ctx.monitoring;
      await alarms.sweepOffline(clock);
      const until = clock + (OFFLINE_AFTER_S + 2) * 1000;
      while (clock < until) {
        clock = Math.min(until, clock + 20_000);
        await alarms.sweepOffline(clock);
      }
    },
    ends: (d) => d.send(),
  },
];

function deviceUnderTest(): DeviceUnderTest {
  const next = unused.shift();
  if (!next) throw new Error('no device left for another path');
  return {
    ...next,
    async send(values = {}) {
      clock += 1000;
      const { ingest } = t.server.ctx.monitoring;
      const frame = Uint8Array.from(telemetryFrame(codec, hybrid, clock, { batterySoc: 60, ...values }));
      ingest.accept({ id: next.id, serial: next.serial, modelId: 'HX-5000' }, frame, clock);
      await ingest.flush();
    },
  };
}

async function alarmsOf(serial: string): Promise<Alarm[]> {
  const answer = await t.call('GET', `/monitoring/alarms?serial=${serial}`, {
    token: adminToken,
    apiKey: null,
  });
  return alarmPageSchema.parse(answer.body).items;
}

/** The demo's devices were never heard from: each gets this alarm too until its first reading. */
const NEVER_CONNECTED = neverConnectedCondition(OFFLINE_AFTER_S).message;

/** The headlines of the mail about the device's alarms of the paths (not its never-connected one). */
async function mailAbout(serial: string): Promise<string[]> {
  await t.server.ctx.mailer.flush();
  return t.mail.sent
    .filter((mail) => mail.subject.includes(serial) && !mail.subject.endsWith(NEVER_CONNECTED))
    .map((mail) => mail.subject.split(' ')[2] ?? '');
}

const acknowledge = (id: number) =>
  t.call('POST', `/monitoring/alarms/${id}/acknowledge`, {
    token: adminToken,
    apiKey: null,
    body: { note: 'Looking into it' },
  });

function driver(kind: Kind): Params {
  const device = deviceUnderTest();
  /** The device's alarms of this kind's rule, newest first. */
  const alarms = async () => (await alarmsOf(device.serial)).filter((a) => a.rule === kind.rule);
  return {
    events: {
      'condition.starts': () => kind.starts(device),
      'condition.ends': () => kind.ends(device),
      'alarm.acknowledge': async () => {
        const [alarm] = await alarms();
        expect((await acknowledge(alarm?.id ?? 0)).status).toBe(200);
      },
    },
    states: {
      quiet: async () => {
        // A device that reports normally: nothing raised, nothing mailed.
        await device.send();
        expect(await alarms()).toEqual([]);
        expect(await mailAbout(device.serial)).toEqual([]);
      },
      active: async () => {
        // The condition still holding raises nothing more.
        if (kind.rule !== 'offline') await device.send(kind.holding);
        else await t.server.ctx.monitoring.alarms.sweepOffline(clock);
        const list = await alarms();
        expect(list.map((a) => [a.state, a.transitions.map((tr) => tr.state)])).toEqual([
          ['active', ['active']],
        ]);
        expect(await mailAbout(device.serial)).toEqual(['Alarm']);
      },
      acknowledged: async () => {
        const [alarm, ...older] = await alarms();
        expect(older).toEqual([]);
        expect(alarm).toMatchObject({
          state: 'acknowledged',
          note: 'Looking into it',
          acknowledgedBy: { id: 1 },
        });
        expect(alarm?.transitions.map((tr) => tr.state)).toEqual(['active', 'acknowledged']);
        // Once is enough: a second acknowledgement is refused and changes nothing.
        expect((await acknowledge(alarm?.id ?? 0)).status).toBe(409);
        expect(await mailAbout(device.serial)).toEqual(['Alarm', 'Acknowledged']);
      },
      cleared: async () => {
        const [alarm, ...older] = await alarms();
        expect(older).toEqual([]);
        expect(alarm?.state).toBe('cleared');
        expect(alarm?.transitions.at(-1)?.state).toBe('cleared');
        expect(Date.parse(alarm?.clearedAt ?? '')).toBe(Date.parse(alarm?.transitions.at(-1)?.at ?? ''));
        expect((await acknowledge(alarm?.id ?? 0)).status).toBe(409);
        const mails = await mailAbout(device.serial);
        expect(mails).toHaveLength(alarm?.transitions.length ?? 0);
        expect(mails.at(-1)).toBe('Cleared');
      },
      raisedAgain: async () => {
        const list = await alarms();
        expect(list.map((a) => a.state)).toEqual(['active', 'cleared']);
        const transitions = list.reduce((n, a) => n + a.transitions.length, 0);
        expect(await mailAbout(device.serial)).toHaveLength(transitions);
      },
    },
  };
}

const model = createTestModel(alarmLifecycleModel);
const paths = [...model.getShortestPaths(), ...model.getSimplePaths()];

describe.each(KINDS)('an alarm raised by $name: model-based paths', (kind) => {
  it.each(paths.map((path) => [path.description, path] as const))('%s', async (_, path) => {
    await path.test(driver(kind));
  });
});
