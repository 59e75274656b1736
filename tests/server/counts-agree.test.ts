import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alarmPageSchema,
  DEVICE_STATES,
  deviceStatusPageSchema,
  fleetCountsSchema,
  overviewSchema,
} from '../../contracts/monitoring.ts';
import { sitePageSchema } from '../../contracts/sites.ts';
import { IDS, startTestServer, type TestServer, type Who } from './harness.ts';

/**
 * A count shown on two screens is one count: Home's (the overview) and the list it links to (the
 * devices in a state, the open alarms, the sites), for every kind of user, at every site and at
 * one, with a site that has no device yet and alarms of every state, of devices and of a site.
 */
let t: TestServer;
const tokens = {} as Record<Who, { config: string; monitoring: string }>;
const WHO: Who[] = ['admin', 'installerA', 'owner', 'installerB'];
const USER_IDS: Record<Who, number> = {
  admin: IDS.admin,
  installerA: IDS.installerA,
  owner: IDS.owner,
  installerB: IDS.installerB,
};

async function monitoring(path: string, who: Who) {
  const answer = await t.call('GET', `/monitoring${path}`, { token: tokens[who].monitoring, apiKey: null });
  expect(answer.status, path).toBe(200);
  return answer.body;
}

const STATE_COUNT = {
  online: 'online',
  offline: 'offline',
  never: 'neverConnected',
  alarm: 'inAlarm',
} as const;

beforeAll(async () => {
  t = await startTestServer({ ALARM_OFFLINE_AFTER_S: '60' });
  const emails: Record<Who, string> = {
    admin: 'admin@fleet.example',
    installerA: 'installer@solarpros.example',
    owner: 'owner@homeowner.example',
    installerB: 'installer@brightvolt.example',
  };
  for (const who of WHO) {
    const config = (await t.login(who)).access_token;
    const login = await t.call('POST', '/monitoring/auth/v2/configurator-login', {
      body: { username: emails[who], access_token: config },
    });
    tokens[who] = { config, monitoring: (login.body as { access_token: string }).access_token };
  }
  // A new site with no device yet.
  const created = await t.call('POST', '/config/sites', {
    token: tokens.installerA.config,
    body: {
      name: 'Empty roof',
      displayAddress: '1 Main St, Austin, TX',
      latitude: 30.27,
      longitude: -97.74,
    },
  });
  expect(created.status).toBe(201);
  // A minute and more of watching: the demo's devices, never heard from, and their sites are alarmed.
  const { alarms } = t.server.ctx.monitoring;
  const start = Date.now();
  for (let i = 1; i <= 5; i += 1) await alarms.sweepOffline(start + i * 20_000);
  const [open] = alarmPageSchema.parse(await monitoring('/alarms?state=open&pageSize=1', 'admin')).items;
  const ack = await t.call('POST', `/monitoring/alarms/${open?.id}/acknowledge`, {
    token: tokens.admin.monitoring,
    apiKey: null,
    body: { note: 'Seen' },
  });
  expect(ack.status).toBe(200);
});
afterAll(() => t.close());

describe('counts on two screens', () => {
  it.each(WHO)('agree with the lists they link to for %s', async (who) => {
    const overview = overviewSchema.parse(await monitoring('/overview', who));
    for (const state of DEVICE_STATES) {
      const list = deviceStatusPageSchema.parse(await monitoring(`/devices?state=${state}&pageSize=1`, who));
      expect(list.total, `devices ${state}`).toBe(overview.devices[STATE_COUNT[state]]);
    }
    for (const state of ['open', 'active', 'acknowledged'] as const) {
      const list = alarmPageSchema.parse(await monitoring(`/alarms?state=${state}&pageSize=1`, who));
      expect(list.total, `alarms ${state}`).toBe(overview.alarms[state]);
    }
    const sites = sitePageSchema.parse(
      (await t.call('GET', `/config/fleet/sites/all/${USER_IDS[who]}/0`, { token: tokens[who].config })).body,
    );
    expect(sites.total, 'sites').toBe(overview.sitesTotal);
    // Each site's row on Home, its counts, and its lists.
    for (const site of overview.sites.slice(0, 3)) {
      const counts = fleetCountsSchema.parse(await monitoring(`/counts?siteId=${site.id}`, who));
      expect(counts.devices).toMatchObject({
        total: site.devices,
        online: site.online,
        offline: site.offline,
        neverConnected: site.neverConnected,
        inAlarm: site.inAlarm,
      });
      expect(counts.alarms.open).toBe(site.openAlarms);
      for (const state of DEVICE_STATES) {
        const list = deviceStatusPageSchema.parse(
          await monitoring(`/devices?state=${state}&siteId=${site.id}&pageSize=1`, who),
        );
        expect(list.total, `devices ${state} at site ${site.id}`).toBe(counts.devices[STATE_COUNT[state]]);
      }
      const alarms = alarmPageSchema.parse(await monitoring(`/alarms?state=open&siteId=${site.id}`, who));
      expect(alarms.total).toBe(counts.alarms.open);
    }
  });

  it('counts a site with no device among the sites, and the alarms of sites themselves', async () => {
    const overview = overviewSchema.parse(await monitoring('/overview', 'admin'));
    const all = await t.server.ctx.db
      .selectFrom('sites')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(overview.sitesTotal).toBe(Number(all?.n));
    const siteAlarms = alarmPageSchema
      .parse(await monitoring('/alarms?state=open&pageSize=100', 'admin'))
      .items.filter((alarm) => alarm.serial === null);
    expect(siteAlarms.length).toBeGreaterThan(0);
    expect(overview.alarms.open).toBeGreaterThan(overview.devices.inAlarm);
  });

  it('answers 404 for the counts of a site the caller does not see', async () => {
    const answer = await t.call('GET', `/monitoring/counts?siteId=${IDS.siteOfB}`, {
      token: tokens.installerA.monitoring,
      apiKey: null,
    });
    expect(answer.status).toBe(404);
  });
});
