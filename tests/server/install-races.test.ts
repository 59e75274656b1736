import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditList, InstalledDevice } from '../../contracts/installs.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

/**
 * Calls that change one unit or one site at the same moment, sent in parallel to the real server:
 * one wins, and every other gets the documented answer (never a 500, never a second winner).
 */
let t: TestServer;
let installer = '';

beforeAll(async () => {
  t = await startTestServer();
  installer = (await t.login('installerA')).access_token;
});
afterAll(() => t.close());

const serial = (n: number) => `HX5K-26-${String(n).padStart(6, '0')}`;

describe('ten parallel replaces of one unit', () => {
  it('let one win; the other nine answer 409 device_changed and record nothing', async () => {
    const old = await t.call('POST', `/config/fleet/sites/${IDS.siteOfA}/installs`, {
      token: installer,
      body: { serial: serial(810), modelId: 'HX-5000' },
    });
    expect(old.status).toBe(201);
    const { id } = old.body as InstalledDevice;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.call('POST', `/config/fleet/installs/${id}/replace`, {
          token: installer,
          body: { serial: serial(811 + i) },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(9).fill(409)]);
    for (const lost of answers.filter((a) => a.status === 409))
      expect(lost.body).toMatchObject({ code: 'device_changed' });
    const winner = answers.find((a) => a.status === 201)?.body as InstalledDevice;
    const onSite = await t.call('GET', `/config/fleet/sites/installs/${IDS.siteOfA}`, { token: installer });
    const serials = (onSite.body as { items: { serial: string }[] }).items.map((d) => d.serial);
    expect(serials.filter((s) => s >= serial(811) && s <= serial(820))).toEqual([winner.serial]);
    const audit = await t.call('GET', `/config/fleet/sites/${IDS.siteOfA}/audit?limit=200`, {
      token: installer,
    });
    const replaced = (audit.body as AuditList).items.filter(
      (r) => r.action === 'replaced' && r.otherSerial === serial(810),
    );
    expect(replaced.map((r) => r.serial)).toEqual([winner.serial]);
  });

  it('let one of two parallel removals win; the other answers 409', async () => {
    const device = await t.call('POST', `/config/fleet/sites/${IDS.siteOfA}/installs`, {
      token: installer,
      body: { serial: serial(830), modelId: 'HX-5000' },
    });
    const { id } = device.body as InstalledDevice;
    const answers = await Promise.all(
      [0, 1].map(() => t.call('DELETE', `/config/fleet/installs/${id}`, { token: installer })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([204, 409]);
  });
});

describe('an install racing the archive of its site', () => {
  // Each round a new empty site is archived while a device is put on it: either the install lands
  // first (201, and the archive answers 409 site_has_devices) or the archive does (204, and the
  // install answers 404 like any site that is gone). Before the site was held in the install's
  // transaction, about one round in 25 answered 500 (a foreign-key violation).
  it('answers 201 + 409 or 404 + 204, never 500, round after round', async () => {
    for (let round = 0; round < 30; round += 1) {
      const created = await t.call('POST', '/config/sites', {
        token: installer,
        body: { name: `Race ${round}`, displayAddress: `${round} Race Rd`, latitude: 1, longitude: 2 },
      });
      expect(created.status).toBe(201);
      const siteId = (created.body as { id: number }).id;
      const [install, archive] = await Promise.all([
        t.call('POST', `/config/fleet/sites/${siteId}/installs`, {
          token: installer,
          body: { serial: serial(900 + round), modelId: 'HX-5000' },
        }),
        t.call('DELETE', `/config/sites/${siteId}`, { token: installer }),
      ]);
      const outcome = `${install.status}+${archive.status}`;
      expect(['201+409', '404+204'], JSON.stringify([install.body, archive.body])).toContain(outcome);
    }
  });
});
