import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePageSchema } from '../../contracts/devices.ts';
import { sitePageSchema } from '../../contracts/sites.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let installer: string;
beforeAll(async () => {
  t = await startTestServer();
  installer = (await t.login('installerA')).access_token;
});
afterAll(() => t.close());

const search = async (q: string) =>
  sitePageSchema.parse(
    (
      await t.call('GET', `/config/fleet/sites/all/${IDS.installerA}/0?q=${encodeURIComponent(q)}`, {
        token: installer,
      })
    ).body,
  );

describe('site search', () => {
  it("finds an installer's sites by their owner's name and e-mail", async () => {
    for (const q of ['olivia homeowner', 'owner@homeowner']) {
      const page = await search(q);
      expect(page.total).toBeGreaterThan(0);
      expect(page.items.every((site) => site.ownerId === IDS.owner)).toBe(true);
    }
  });

  it('finds the site a device is installed at by part of its serial', async () => {
    const devices = devicePageSchema.parse(
      (await t.call('GET', `/config/fleet/devices/all/${IDS.installerA}`, { token: installer })).body,
    );
    const device = devices.items[0];
    expect(device).toBeDefined();
    const page = await search(device?.serial.slice(-9) ?? '');
    expect(page.items.map((site) => site.id)).toContain(device?.siteId);
  });

  it('finds nothing for text no site, owner or serial holds', async () => {
    expect((await search('no-such-thing-anywhere')).total).toBe(0);
  });
});
