import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Rollout } from '../../contracts/firmware.ts';
import { FIRMWARE_REVERTED_RULE } from '../../server/monitoring/alarms/alarm-store.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { fleetOnline, seedFleet, uploadFleetImage } from './rollout-fleet.ts';

/**
 * Issue 39's fleet rollouts at the size it names, over HTTP on the real server: 50 simulated devices
 * online over their sockets, each answering SMP with MCUboot's two slots. With a canary of 5, waves
 * of 10 and a limit of 2, three devices whose new image does not come up stop the rollout at the
 * third failure, and every device is reported as it truly is; without failures every device ends
 * confirmed.
 *
 * It runs with the PostgreSQL pass of the server suite (TEST_DATABASE_URL, as `.ci/run` sets it):
 * a hundred devices in two rollouts of waves take longer than `npm test` should grow by.
 */
const DATABASE = process.env.TEST_DATABASE_URL;
const FACTORY = '1.0.0';
const SECRET = 'rollout-fleet-secret';
const key = generateKeyPairSync('ed25519').privateKey;
let t: TestServer;
let admin = '';
const stops: (() => Promise<void>)[] = [];

const rolloutOf = async (id: number) => {
  const answer = await t.call('GET', `/config/fleet/firmware-rollouts/${id}`, { token: admin });
  expect(answer.status).toBe(200);
  return answer.body as Rollout;
};

/** Wait for the rollout to reach what `check` asserts (asked again as the engine moves on). */
const until = (id: number, check: (rollout: Rollout) => void) =>
  vi.waitFor(
    async () => {
      const rollout = await rolloutOf(id);
      check(rollout);
      return rollout;
    },
    { timeout: 120_000, interval: 50 },
  );

/** Once no device is under way and the engine has nothing left to do: what it leaves is final. */
async function settled(id: number): Promise<Rollout> {
  await until(id, (rollout) =>
    expect(rollout.devices.filter((d) => d.state === 'uploading' || d.state === 'testing')).toEqual([]),
  );
  await t.server.ctx.rollouts.idle();
  return rolloutOf(id);
}

async function start(serials: string[], firmwareId: number): Promise<number> {
  const created = await t.call('POST', '/config/fleet/firmware-rollouts', {
    token: admin,
    body: { firmwareId, serials, canary: 5, waveSize: 10, maxFailures: 2 },
  });
  expect(created.status).toBe(201);
  return (created.body as { id: number }).id;
}

describe.skipIf(!DATABASE)('a rollout across 50 devices online', () => {
  beforeAll(async () => {
    // No telemetry in the way: one reading an hour.
    t = await startTestServer({ TELEMETRY_INTERVAL_S: '3600' }, { firmwareKey: key });
    admin = (await t.login('admin')).access_token;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(stops.map((stop) => stop()));
    await t?.close();
  });

  it('stops itself at the third failure and reports each device as it is', async () => {
    const serials = await seedFleet(t.server.ctx.db, { count: 50, first: 200_000, secret: SECRET });
    // Canary 0–4, then waves of 10: wave 1 is 5–14, wave 2 15–24, wave 3 25–34, wave 4 35–44, wave 5
    // 45–49. One failure in the canary (1 of 2 allowed: the rollout goes on), one in wave 1, the
    // third in wave 3.
    const failing = [serials[2], serials[12], serials[27]] as string[];
    const fleet = await fleetOnline(t, serials, {
      secret: SECRET,
      version: FACTORY,
      key,
      unhealthy: failing,
    });
    stops.push(fleet.stop);
    const firmwareId = await uploadFleetImage(t, admin, { key, version: '2.0.0', payloadBytes: 4096 });
    const id = await start(serials, firmwareId);
    await until(id, (rollout) => expect(rollout.state).not.toBe('running'));
    const rollout = await settled(id);
    expect(rollout.state).toBe('stopped');

    // Wave 3 was under way at the third failure and finished; waves 4 and 5 never started.
    const expected = serials.map((serial, i) => {
      if (failing.includes(serial)) return [serial, 'reverted', FACTORY];
      return i < 35 ? [serial, 'confirmed', '2.0.0'] : [serial, 'queued', FACTORY];
    });
    expect(rollout.devices.map((d) => [d.serial, d.state, d.version])).toEqual(expected);
    // What the rollout says is what each device runs.
    expect(rollout.devices.map((d) => [d.serial, d.version])).toEqual(
      serials.map((serial) => [serial, fleet.sides.get(serial)?.runningVersion]),
    );
    for (const serial of failing) {
      expect(rollout.devices.find((d) => d.serial === serial)?.reason).toMatch(/came back running 1\.0\.0/);
      expect(fleet.sides.get(serial)?.slots.confirmed).toBe(true);
    }
    // …and what each said in its hello after its restart.
    const stored = await t.server.ctx.db
      .selectFrom('devices')
      .select(['serial', 'firmware_version'])
      .where('serial', 'in', serials)
      .orderBy('serial')
      .execute();
    expect(stored.map((row) => [row.serial, row.firmware_version])).toEqual(
      expected.map(([serial, , version]) => [serial, version]),
    );

    // The audit: the stop came after the third revert, and no device of waves 4–5 ever started.
    const log = await t.server.ctx.db
      .selectFrom('firmware_rollout_events')
      .select(['event', 'serial', 'detail'])
      .where('rollout_id', '=', id)
      .orderBy('id')
      .execute();
    const reverts = log.flatMap((e, at) => (e.event === 'reverted' ? [at] : []));
    const stop = log.findIndex((e) => e.event === 'stopped');
    expect(reverts).toHaveLength(3);
    expect(stop).toBeGreaterThan(reverts[2] as number);
    expect(log[stop]?.detail).toBe('3 failures, over the limit of 2');
    const started = new Set(log.filter((e) => e.event === 'uploading').map((e) => e.serial));
    expect(serials.filter((serial) => started.has(serial))).toEqual(serials.slice(0, 35));

    // One alarm for each device that reverted, none for the others.
    const alarms = await t.server.ctx.db
      .selectFrom('alarms')
      .innerJoin('devices', 'devices.id', 'alarms.device_id')
      .select('devices.serial')
      .where('alarms.rule', '=', FIRMWARE_REVERTED_RULE)
      .where('alarms.state', '=', 'active')
      .where('devices.serial', 'in', serials)
      .orderBy('devices.serial')
      .execute();
    expect(alarms.map((alarm) => alarm.serial)).toEqual([...failing].sort());
  }, 180_000);

  it('confirms every device when none fails', async () => {
    const serials = await seedFleet(t.server.ctx.db, { count: 50, first: 200_100, secret: SECRET });
    const fleet = await fleetOnline(t, serials, { secret: SECRET, version: FACTORY, key });
    stops.push(fleet.stop);
    const firmwareId = await uploadFleetImage(t, admin, { key, version: '3.0.0', payloadBytes: 4096 });
    const id = await start(serials, firmwareId);
    const done = await until(id, (rollout) => expect(rollout.state).toBe('done'));
    expect(done.devices).toEqual(serials.map((serial) => ({ serial, state: 'confirmed', version: '3.0.0' })));
    for (const serial of serials) {
      expect(fleet.sides.get(serial)?.runningVersion).toBe('3.0.0');
      expect(fleet.sides.get(serial)?.slots.confirmed).toBe(true);
    }
  }, 180_000);
});

describe.skipIf(DATABASE)('a rollout across 50 devices online', () => {
  it.skip('skipped: set TEST_DATABASE_URL to a PostgreSQL (as .ci/run does) to run the 50-device rollouts', () => {});
});
