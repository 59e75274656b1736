import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Rollout, RolloutList } from '../../contracts/firmware.ts';
import { parseVersion, signImage } from '../../server/firmware/sign-image.ts';
import { FIRMWARE_REVERTED_RULE } from '../../server/monitoring/alarms/alarm-store.ts';
import { smpSide } from '../../src/device-sim/online/smp-side.ts';
import type { SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import type { SmpDevice } from '../../src/device-sim/smp-device.ts';
import { durableDatabase, IDS, startTestServer, type TestServer } from './harness.ts';
import { fleetOnline, seedFleet, uploadFleetImage } from './rollout-fleet.ts';
import { connectDevice } from './service-comms-devices.ts';

/**
 * Firmware rollouts over HTTP, on the real server and simulated devices that answer SMP over their
 * sockets with MCUboot's two slots: waves after the canary, a rollout that stops itself past its
 * failure limit, pause and resume, a restart in the middle, and devices the caller may not update.
 */
const FACTORY = '1.0.0';
let t: TestServer;
const tokens = { admin: '', installerA: '' };
let firmwareKey: KeyObject;
/** One model's devices on installer A's sites (A may update them), by serial. */
let modelId = '';
let serialsOfA: string[] = [];
/** A device of that model on installer B's site alone. */
let serialOfB = '';
const online: SocketDevice[] = [];
/** How far the rollout engine's clock is ahead of the real one (a window closing without a wait). */
let clockAhead = 0;
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  firmwareKey = generateKeyPairSync('ed25519').privateKey;
  t = await startTestServer({}, { firmwareKey, rolloutTimers: { now: () => Date.now() + clockAhead } });
  tokens.admin = (await t.login('admin')).access_token;
  tokens.installerA = (await t.login('installerA')).access_token;
  const devicesOf = async (user: number) =>
    (
      await t.server.ctx.db
        .selectFrom('devices')
        .innerJoin('site_access', 'site_access.site_id', 'devices.site_id')
        .select(['devices.serial', 'devices.model_id', 'devices.site_id', 'site_access.roles'])
        .where('site_access.user_id', '=', user)
        .where('site_access.access', '=', true)
        .orderBy('devices.serial')
        .execute()
    ).filter((d) => d.roles.includes('installer'));
  const ofA = await devicesOf(IDS.installerA);
  const ofB = await devicesOf(IDS.installerB);
  const sitesOfA = new Set(ofA.map((d) => d.site_id));
  // The model A has most devices of, with one of B's (on a site A has no part in) beside them.
  const counts = new Map<string, number>();
  for (const d of ofA) counts.set(d.model_id, (counts.get(d.model_id) ?? 0) + 1);
  const models = [...counts].sort((a, b) => b[1] - a[1]).map(([model]) => model);
  modelId = models.find((model) => ofB.some((d) => d.model_id === model && !sitesOfA.has(d.site_id))) ?? '';
  serialsOfA = ofA.filter((d) => d.model_id === modelId).map((d) => d.serial);
  serialOfB = ofB.find((d) => d.model_id === modelId && !sitesOfA.has(d.site_id))?.serial ?? '';
  expect(serialsOfA.length).toBeGreaterThanOrEqual(12);
  expect(serialOfB).not.toBe('');
}, 120_000);

afterAll(async () => {
  await Promise.all([...online.map((device) => device.stop()), ...stops.map((stop) => stop())]);
  await t.close();
});

const trusted = () => [new Uint8Array(createPublicKey(firmwareKey).export({ type: 'spki', format: 'der' }))];

/** Devices online with their SMP side, each with a new secret; `unhealthy` ones cannot run a new image. */
async function bring(server: TestServer, serials: string[], unhealthy: string[] = []) {
  const sides = new Map<string, SmpDevice>();
  for (const serial of serials) {
    const issued = await server.call('POST', `/config/service-comms/devices/${serial}/secret`, {
      token: tokens.admin,
    });
    const smp = await smpSide({
      modelId,
      version: FACTORY,
      keys: trusted(),
      healthy: !unhealthy.includes(serial),
    });
    sides.set(serial, smp);
    online.push(await reconnect(server, serial, (issued.body as { secret: string }).secret, smp));
  }
  return sides;
}

const secrets = new Map<string, string>();
async function reconnect(server: TestServer, serial: string, secret: string, smp: SmpDevice) {
  secrets.set(serial, secret);
  return connectDevice(server.origin, { serialNumber: serial, modelId, secret, smp, restartMs: 20 });
}

let nextVersion = 2;
async function uploadImage(
  server: TestServer,
  token = tokens.admin,
): Promise<{ id: number; version: string }> {
  const version = `${nextVersion++}.0.0`;
  const id = await uploadFleetImage(server, token, {
    key: firmwareKey,
    modelId,
    version,
    payloadBytes: 12_000,
    fill: nextVersion,
  });
  return { id, version };
}

const rolloutOf = async (server: TestServer, id: number, token = tokens.admin) => {
  const answer = await server.call('GET', `/config/fleet/firmware-rollouts/${id}`, { token });
  expect(answer.status).toBe(200);
  return answer.body as Rollout;
};

/** Wait for the rollout to reach what `check` asserts (asked again as the engine moves on). */
const until = (server: TestServer, id: number, check: (rollout: Rollout) => void) =>
  vi.waitFor(
    async () => {
      const rollout = await rolloutOf(server, id);
      check(rollout);
      return rollout;
    },
    { timeout: 60_000, interval: 50 },
  );

const events = (server: TestServer, id: number) =>
  server.server.ctx.db
    .selectFrom('firmware_rollout_events')
    .select(['id', 'event', 'serial', 'user_id'])
    .where('rollout_id', '=', id)
    .orderBy('id')
    .execute();

describe('a firmware rollout over the device sockets', () => {
  it('updates the canary first, then each wave once the one before has confirmed, and confirms every device', async () => {
    const serials = serialsOfA.slice(0, 4);
    const sides = await bring(t, serials);
    const image = await uploadImage(t);
    const created = await t.call('POST', '/config/fleet/firmware-rollouts', {
      token: tokens.installerA,
      body: { firmwareId: image.id, serials, canary: 1, waveSize: 2, maxFailures: 0 },
    });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: number; state: string };
    expect(created.body).toEqual({ id, state: 'running' });
    const done = await until(t, id, (rollout) => expect(rollout.state).toBe('done'));
    expect(done.devices).toEqual(
      serials.map((serial) => ({ serial, state: 'confirmed', version: image.version })),
    );
    // Without `windowHours`, devices offline at their turn are waited for a day.
    expect(Date.parse(done.windowEndsAt) - Date.parse(done.createdAt)).toBe(24 * 3_600_000);
    for (const serial of serials) expect(sides.get(serial)?.runningVersion).toBe(image.version);
    // The devices said their new version in their hello after the restart.
    const stored = await t.server.ctx.db
      .selectFrom('devices')
      .select('firmware_version')
      .where('serial', 'in', serials)
      .execute();
    expect(stored.map((row) => row.firmware_version)).toEqual(serials.map(() => image.version));
    // Audited in order: the canary confirmed before any other device started, wave 1 before wave 2.
    const log = await events(t, id);
    const at = (event: string, serial: string) =>
      log.findIndex((e) => e.event === event && e.serial === serial);
    expect(log[0]).toMatchObject({ event: 'created', user_id: IDS.installerA });
    const [canary, w1a, w1b, w2] = serials as [string, string, string, string];
    expect(at('confirmed', canary)).toBeLessThan(Math.min(at('uploading', w1a), at('uploading', w1b)));
    expect(Math.max(at('confirmed', w1a), at('confirmed', w1b))).toBeLessThan(at('uploading', w2));
    expect(log.at(-1)?.event).toBe('done');
    for (const serial of serials)
      expect(log.filter((e) => e.serial === serial).map((e) => e.event)).toEqual([
        'uploading',
        'testing',
        'confirmed',
      ]);
  }, 90_000);

  it('stops itself once its failures pass the limit: a device whose image does not come up reverts, and no new one starts', async () => {
    const serials = serialsOfA.slice(4, 9);
    const [canary, bad1, bad2, later1, later2] = serials as [string, string, string, string, string];
    const sides = await bring(t, serials, [bad1, bad2]);
    const image = await uploadImage(t);
    const created = await t.call('POST', '/config/fleet/firmware-rollouts', {
      token: tokens.admin,
      body: { firmwareId: image.id, serials, canary: 1, waveSize: 2, maxFailures: 1 },
    });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: number };
    await until(t, id, (rollout) => expect(rollout.state).toBe('stopped'));
    await t.server.ctx.rollouts.idle();
    const stopped = await rolloutOf(t, id);
    expect(stopped.state).toBe('stopped');
    expect(stopped.devices.map((d) => [d.serial, d.state, d.version])).toEqual([
      [canary, 'confirmed', image.version],
      [bad1, 'reverted', FACTORY],
      [bad2, 'reverted', FACTORY],
      [later1, 'queued', FACTORY],
      [later2, 'queued', FACTORY],
    ]);
    expect(stopped.devices[1]?.reason).toMatch(/came back running 1\.0\.0/);
    // The reverted devices run their old image, confirmed, and are online again with it.
    for (const serial of [bad1, bad2]) {
      expect(sides.get(serial)?.runningVersion).toBe(FACTORY);
      expect(sides.get(serial)?.slots.confirmed).toBe(true);
    }
    expect(sides.get(later1)?.runningVersion).toBe(FACTORY);
    // Each reverted device raised an alarm.
    const alarms = await t.server.ctx.db
      .selectFrom('alarms')
      .innerJoin('devices', 'devices.id', 'alarms.device_id')
      .select(['devices.serial', 'alarms.state', 'alarms.severity'])
      .where('alarms.rule', '=', FIRMWARE_REVERTED_RULE)
      .where('devices.serial', 'in', serials)
      .orderBy('devices.serial')
      .execute();
    expect(alarms).toEqual([
      { serial: bad1, state: 'active', severity: 'warning' },
      { serial: bad2, state: 'active', severity: 'warning' },
    ]);
    expect((await events(t, id)).at(-1)).toMatchObject({ event: 'stopped', user_id: null });
    // Stopped for good: resuming is for a paused rollout; cancelling ends it.
    expect(
      (await t.call('POST', `/config/fleet/firmware-rollouts/${id}/resume`, { token: tokens.admin })).status,
    ).toBe(409);
    const cancelled = await t.call('POST', `/config/fleet/firmware-rollouts/${id}/cancel`, {
      token: tokens.admin,
    });
    expect(cancelled.body).toEqual({ id, state: 'cancelled' });
  }, 90_000);

  it('starts no new device while paused, and goes on when resumed', async () => {
    const serials = serialsOfA.slice(9, 12);
    await bring(t, serials);
    const image = await uploadImage(t);
    const created = await t.call('POST', '/config/fleet/firmware-rollouts', {
      token: tokens.installerA,
      body: { firmwareId: image.id, serials, canary: 1, waveSize: 1, maxFailures: 0 },
    });
    const { id } = created.body as { id: number };
    const paused = await t.call('POST', `/config/fleet/firmware-rollouts/${id}/pause`, {
      token: tokens.installerA,
    });
    expect(paused.body).toEqual({ id, state: 'paused' });
    // A device under way finishes; then nothing moves.
    await until(t, id, (rollout) =>
      expect(rollout.devices.filter((d) => d.state === 'uploading' || d.state === 'testing')).toEqual([]),
    );
    await t.server.ctx.rollouts.idle();
    const held = await rolloutOf(t, id);
    expect(held.state).toBe('paused');
    expect(held.devices.filter((d) => d.state === 'queued').length).toBeGreaterThanOrEqual(2);
    const resumed = await t.call('POST', `/config/fleet/firmware-rollouts/${id}/resume`, {
      token: tokens.installerA,
    });
    expect(resumed.body).toEqual({ id, state: 'running' });
    const done = await until(t, id, (rollout) => expect(rollout.state).toBe('done'));
    expect(done.devices.map((d) => d.state)).toEqual(['confirmed', 'confirmed', 'confirmed']);
    expect((await events(t, id)).filter((e) => e.user_id === IDS.installerA).map((e) => e.event)).toEqual([
      'created',
      'paused',
      'running',
    ]);
  }, 90_000);
});

describe("a rollout's window for devices offline at their turn", () => {
  const SECRET = 'rollout-window-secret';
  const start = async (serials: string[], version: string, windowHours: number) => {
    const firmwareId = await uploadFleetImage(t, tokens.admin, {
      key: firmwareKey,
      version,
      payloadBytes: 4096,
    });
    const created = await t.call('POST', '/config/fleet/firmware-rollouts', {
      token: tokens.admin,
      body: { firmwareId, serials, canary: 1, waveSize: 1, maxFailures: 0, windowHours },
    });
    expect(created.status).toBe(201);
    return (created.body as { id: number }).id;
  };
  const bringFleet = async (serials: string[]) => {
    const fleet = await fleetOnline(t, serials, { secret: SECRET, version: FACTORY, key: firmwareKey });
    stops.push(fleet.stop);
    return fleet;
  };

  it('updates a device offline at its turn when it comes back within the window', async () => {
    const serials = await seedFleet(t.server.ctx.db, { count: 3, first: 300_000, secret: SECRET });
    const [first, away, last] = serials as [string, string, string];
    await bringFleet([first, last]);
    const id = await start(serials, '30.0.0', 2);
    // The device after it goes on; the rollout waits for the one away.
    const waiting = await until(t, id, (rollout) =>
      expect(rollout.devices.map((d) => [d.serial, d.state, d.reason])).toEqual([
        [first, 'confirmed', undefined],
        [away, 'offline', 'Offline at its turn'],
        [last, 'confirmed', undefined],
      ]),
    );
    expect(Date.parse(waiting.windowEndsAt) - Date.parse(waiting.createdAt)).toBe(2 * 3_600_000);
    await t.server.ctx.rollouts.idle();
    expect((await rolloutOf(t, id)).state).toBe('running');
    // An hour later (in the engine's time) it connects: it is updated.
    clockAhead = 3_600_000;
    try {
      const back = await bringFleet([away]);
      const done = await until(t, id, (rollout) => expect(rollout.state).toBe('done'));
      expect(done.devices.map((d) => [d.state, d.version])).toEqual(
        serials.map(() => ['confirmed', '30.0.0']),
      );
      expect(back.sides.get(away)?.runningVersion).toBe('30.0.0');
      const log = await events(t, id);
      expect(log.filter((e) => e.serial === away).map((e) => e.event)).toEqual([
        'offline',
        'uploading',
        'testing',
        'confirmed',
      ]);
    } finally {
      clockAhead = 0;
    }
  }, 90_000);

  it('leaves out a device still offline when the window closes, and the rollout ends', async () => {
    const serials = await seedFleet(t.server.ctx.db, { count: 2, first: 300_010, secret: SECRET });
    const [here, away] = serials as [string, string];
    await bringFleet([here]);
    const id = await start(serials, '31.0.0', 1);
    await until(t, id, (rollout) =>
      expect(rollout.devices.map((d) => d.state)).toEqual(['confirmed', 'offline']),
    );
    await t.server.ctx.rollouts.idle();
    expect((await rolloutOf(t, id)).state).toBe('running');
    // The window closes (the engine's clock passes it); the next look leaves the device out.
    clockAhead = 3_600_000 + 1000;
    try {
      t.server.ctx.rollouts.kick();
      await t.server.ctx.rollouts.idle();
      const ended = await rolloutOf(t, id);
      expect(ended.state).toBe('done');
      expect(ended.devices[1]).toEqual({
        serial: away,
        state: 'offline',
        version: null,
        reason: `Still offline when the rollout's window closed (${ended.windowEndsAt.slice(0, 16).replace('T', ' ')} UTC)`,
      });
      expect((await events(t, id)).slice(-2)).toMatchObject([
        { event: 'offline', serial: away },
        { event: 'done', serial: null },
      ]);
      const detail = await t.server.ctx.db
        .selectFrom('firmware_rollout_events')
        .select('detail')
        .where('rollout_id', '=', id)
        .where('event', '=', 'done')
        .executeTakeFirstOrThrow();
      expect(detail.detail).toBe('1 confirmed, 0 failed, 1 offline');
      // Back after the window: it is not updated by this rollout, and a new one may take it.
      const late = await bringFleet([away]);
      await t.server.ctx.rollouts.idle();
      expect((await rolloutOf(t, id)).devices[1]?.state).toBe('offline');
      expect(late.sides.get(away)?.runningVersion).toBe(FACTORY);
      const next = await start([away], '32.0.0', 1);
      const confirmed = await until(t, next, (rollout) => expect(rollout.state).toBe('done'));
      expect(confirmed.devices).toEqual([{ serial: away, state: 'confirmed', version: '32.0.0' }]);
    } finally {
      clockAhead = 0;
    }
  }, 90_000);

  it("stamps a rollout's start and window with the engine's clock, the one that closes the window", async () => {
    const serials = await seedFleet(t.server.ctx.db, { count: 1, first: 300_020, secret: SECRET });
    clockAhead = 30 * 86_400_000;
    try {
      const before = Date.now() + clockAhead;
      const id = await start(serials, '33.0.0', 3);
      const after = Date.now() + clockAhead;
      const rollout = await rolloutOf(t, id);
      expect(Date.parse(rollout.createdAt)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(rollout.createdAt)).toBeLessThanOrEqual(after);
      expect(Date.parse(rollout.windowEndsAt) - Date.parse(rollout.createdAt)).toBe(3 * 3_600_000);
      expect(
        (await t.call('POST', `/config/fleet/firmware-rollouts/${id}/cancel`, { token: tokens.admin }))
          .status,
      ).toBe(200);
    } finally {
      clockAhead = 0;
    }
  });
});

describe('who may roll out firmware', () => {
  it("refuses another company's device as unknown (404), and a rollout the caller did not start", async () => {
    const image = await uploadImage(t);
    const before = await t.server.ctx.db.selectFrom('firmware_rollouts').select('id').execute();
    const refused = await t.call('POST', '/config/fleet/firmware-rollouts', {
      token: tokens.installerA,
      body: {
        firmwareId: image.id,
        serials: [serialsOfA[0], serialOfB],
        canary: 1,
        waveSize: 1,
        maxFailures: 0,
      },
    });
    expect(refused.status).toBe(404);
    expect((refused.body as { message: string }).message).toBe(`Device ${serialOfB} not found`);
    const otherSite = await t.call('POST', '/config/fleet/firmware-rollouts', {
      token: tokens.installerA,
      body: { firmwareId: image.id, siteId: IDS.siteOfB, canary: 1, waveSize: 1, maxFailures: 0 },
    });
    expect(otherSite.status).toBe(404);
    expect(await t.server.ctx.db.selectFrom('firmware_rollouts').select('id').execute()).toEqual(before);
    // Staff's rollout of B's device: installer A does not learn of it.
    const staffs = await t.call('POST', '/config/fleet/firmware-rollouts', {
      token: tokens.admin,
      body: { firmwareId: image.id, serials: [serialOfB], canary: 1, waveSize: 1, maxFailures: 0 },
    });
    expect(staffs.status).toBe(201);
    const { id } = staffs.body as { id: number };
    for (const path of [`/${id}`, `/${id}/pause`, `/${id}/cancel`]) {
      const answer = await t.call(
        path === `/${id}` ? 'GET' : 'POST',
        `/config/fleet/firmware-rollouts${path}`,
        {
          token: tokens.installerA,
        },
      );
      expect(answer.status).toBe(404);
    }
    // One rollout under way per device.
    const twice = await t.call('POST', '/config/fleet/firmware-rollouts', {
      token: tokens.admin,
      body: { firmwareId: image.id, serials: [serialOfB], canary: 1, waveSize: 1, maxFailures: 0 },
    });
    expect(twice.status).toBe(409);
    await t.call('POST', `/config/fleet/firmware-rollouts/${id}/cancel`, { token: tokens.admin });
  });

  it('lists only the rollouts the caller may see, newest first, with their devices counted by state', async () => {
    const image = await uploadImage(t);
    const start = async (token: string, serials: string[]) => {
      const answer = await t.call('POST', '/config/fleet/firmware-rollouts', {
        token,
        body: { firmwareId: image.id, serials, canary: 1, waveSize: 1, maxFailures: 0 },
      });
      expect(answer.status).toBe(201);
      return (answer.body as { id: number }).id;
    };
    const list = async (token: string, query = '') => {
      const answer = await t.call('GET', `/config/fleet/firmware-rollouts${query}`, { token });
      expect(answer.status).toBe(200);
      return answer.body as RolloutList;
    };
    // Neither device is online: each is marked offline at its turn, so the counts hold still.
    const ofA = await start(tokens.installerA, [serialsOfA.at(-1) ?? '']);
    const ofStaff = await start(tokens.admin, [serialOfB]);
    await t.server.ctx.rollouts.idle();
    const installerB = (await t.login('installerB')).access_token;
    try {
      // Installer A sees the rollouts they started (earlier tests here started some), newest first.
      const seenByA = (await list(tokens.installerA)).rollouts;
      const startedByA = await t.server.ctx.db
        .selectFrom('firmware_rollouts')
        .select('id')
        .where('created_by', '=', IDS.installerA)
        .orderBy('id', 'desc')
        .execute();
      expect(seenByA.map((r) => r.id)).toEqual(startedByA.map((r) => r.id));
      expect(seenByA[0]?.id).toBe(ofA);
      expect(seenByA[0]).toMatchObject({ state: 'running', modelId, version: image.version, devices: 1 });
      expect(seenByA[0]?.counts).toEqual({
        queued: 0,
        uploading: 0,
        testing: 0,
        confirmed: 0,
        reverted: 0,
        failed: 0,
        offline: 1,
      });
      // Another installer (another company's sites) sees neither A's rollout nor staff's.
      expect((await list(installerB)).rollouts.map((r) => r.id)).not.toContain(ofA);
      expect((await list(installerB)).rollouts.map((r) => r.id)).not.toContain(ofStaff);
      // Staff see every rollout, newest first, a page at a time.
      const first = await list(tokens.admin, '?limit=1');
      expect(first.rollouts.map((r) => r.id)).toEqual([ofStaff]);
      const second = await list(tokens.admin, `?limit=1&before=${first.next}`);
      expect(second.rollouts.map((r) => r.id)).toEqual([ofA]);
      const all = (await list(tokens.admin, '?limit=100')).rollouts.map((r) => r.id);
      expect(all).toEqual([...all].sort((a, b) => b - a));
      const bad = await t.call('GET', '/config/fleet/firmware-rollouts?limit=0', { token: tokens.admin });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ field: 'limit' });
    } finally {
      for (const id of [ofA, ofStaff])
        await t.call('POST', `/config/fleet/firmware-rollouts/${id}/cancel`, { token: tokens.admin });
    }
  });

  it.each([
    [{ canary: 0, waveSize: 1, maxFailures: 0 }, 'canary'],
    [{ canary: 1, waveSize: 1, maxFailures: -1 }, 'maxFailures'],
    [{ canary: 1, waveSize: 1, maxFailures: 0, siteId: 1, serials: ['HX5K-24-000123'] }, 'siteId'],
    [{ canary: 1, waveSize: 1, maxFailures: 0, windowHours: 0 }, 'windowHours'],
    [{ canary: 1, waveSize: 1, maxFailures: 0, windowHours: 721 }, 'windowHours'],
    [{ canary: 1, waveSize: 1, maxFailures: 0, windowHours: 1.5 }, 'windowHours'],
    [{ canary: 1, waveSize: 1, maxFailures: 0, windowHours: '24' }, 'windowHours'],
  ])('answers 400 naming the field for %j', async (body, field) => {
    const answer = await t.call('POST', '/config/fleet/firmware-rollouts', {
      token: tokens.admin,
      body: { firmwareId: 1, ...body },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field });
  });
});

describe('a server restart in the middle of a rollout', () => {
  it('goes on where the rollout was: devices done stay done, the rest are updated', async () => {
    const database = await durableDatabase();
    const key = generateKeyPairSync('ed25519').privateKey;
    let first: TestServer | undefined = await startTestServer({}, { database, firmwareKey: key });
    let second: TestServer | undefined;
    const devices: SocketDevice[] = [];
    try {
      const admin = (await first.login('admin')).access_token;
      const serials = serialsOfA.slice(0, 3);
      const sides = new Map<string, SmpDevice>();
      for (const serial of serials) {
        const issued = await first.call('POST', `/config/service-comms/devices/${serial}/secret`, {
          token: admin,
        });
        const smp = await smpSide({
          modelId,
          version: FACTORY,
          keys: [new Uint8Array(createPublicKey(key).export({ type: 'spki', format: 'der' }))],
        });
        sides.set(serial, smp);
        secrets.set(serial, (issued.body as { secret: string }).secret);
        devices.push(await reconnect(first, serial, secrets.get(serial) as string, smp));
      }
      const image = signImage({
        key,
        modelId,
        version: parseVersion('7.0.0'),
        payload: Buffer.alloc(12_000, 7),
      });
      const uploaded = await fetch(`${first.origin}/config/fleet/firmware?model=${modelId}&channel=stable`, {
        method: 'POST',
        headers: {
          'api-key': first.server.ctx.env.API_KEY,
          authorization: `Bearer ${admin}`,
          'content-type': 'application/octet-stream',
        },
        body: new Uint8Array(image),
      });
      const firmwareId = ((await uploaded.json()) as { id: number }).id;
      const created = await first.call('POST', '/config/fleet/firmware-rollouts', {
        token: admin,
        body: { firmwareId, serials, canary: 1, waveSize: 1, maxFailures: 0 },
      });
      const { id } = created.body as { id: number };
      const server = first;
      await vi.waitFor(
        async () => {
          const answer = await server.call('GET', `/config/fleet/firmware-rollouts/${id}`, { token: admin });
          expect((answer.body as Rollout).devices[0]?.state).toBe('confirmed');
        },
        { timeout: 60_000, interval: 20 },
      );
      // The devices lose the server, the server stops, and a new one starts on the same database.
      await Promise.all(devices.splice(0).map((device) => device.stop()));
      await first.close();
      first = undefined;
      second = await startTestServer({}, { database, firmwareKey: key });
      const again = (await second.login('admin')).access_token;
      const mid = (await second.call('GET', `/config/fleet/firmware-rollouts/${id}`, { token: again }))
        .body as Rollout;
      expect(mid.state).toBe('running');
      expect(mid.devices[0]?.state).toBe('confirmed');
      for (const serial of serials)
        devices.push(
          await reconnect(second, serial, secrets.get(serial) as string, sides.get(serial) as SmpDevice),
        );
      const restarted = second;
      const done = await vi.waitFor(
        async () => {
          const answer = await restarted.call('GET', `/config/fleet/firmware-rollouts/${id}`, {
            token: again,
          });
          expect((answer.body as Rollout).state).toBe('done');
          return answer.body as Rollout;
        },
        { timeout: 60_000, interval: 50 },
      );
      expect(done.devices.map((d) => [d.state, d.version])).toEqual(
        serials.map(() => ['confirmed', '7.0.0']),
      );
      for (const serial of serials) expect(sides.get(serial)?.runningVersion).toBe('7.0.0');
      // The canary was updated once: the new server did not start it again.
      const log = await events(second, id);
      expect(log.filter((e) => e.serial === serials[0] && e.event === 'uploading')).toHaveLength(1);
    } finally {
      await Promise.all(devices.map((device) => device.stop()));
      await first?.close();
      await second?.close();
      await database.drop();
    }
  }, 120_000);
});
