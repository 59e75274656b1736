import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePageSchema } from '../../contracts/devices.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let installer: string;
beforeAll(async () => {
  t = await startTestServer();
  installer = (await t.login('installerA')).access_token;
});
afterAll(() => t.close());

describe('devices', () => {
  it("lists a site's installs with catalogue model ids and real-looking serials", async () => {
    const answer = await t.call('GET', `/config/fleet/sites/installs/${IDS.siteOfA}`, { token: installer });
    expect(answer.status).toBe(200);
    const page = devicePageSchema.parse(answer.body);
    expect(page.total).toBeGreaterThan(0);
    for (const device of page.items) {
      expect(['HX-5000', 'BX-10', 'E1-40']).toContain(device.modelId);
      expect(device.serial).toMatch(/^(HX5K|BX10|E140)-2[45]-\d{6}$/);
      expect(device.siteId).toBe(IDS.siteOfA);
    }
  });

  it("lists only the installer's own devices, paged, with a total", async () => {
    const page = devicePageSchema.parse(
      (await t.call('GET', `/config/fleet/device-list/${IDS.installerA}/0?pageSize=5`, { token: installer }))
        .body,
    );
    expect(page.items).toHaveLength(5);
    const all = devicePageSchema.parse(
      (await t.call('GET', `/config/fleet/devices/all/${IDS.installerA}`, { token: installer })).body,
    );
    expect(all.total).toBe(page.total);
    const siteIds = new Set(all.items.map((device) => device.siteId));
    expect([...siteIds].every((id) => id <= 70)).toBe(true);
  });

  it('finds one device of a model by serial, and answers 404 for a serial that is not visible', async () => {
    const mine = devicePageSchema.parse(
      (await t.call('GET', `/config/fleet/sites/installs/${IDS.siteOfA}`, { token: installer })).body,
    );
    const device = mine.items[0];
    if (!device) throw new Error('seed has no device at the site');
    const found = await t.call('GET', `/config/install/device/${device.modelId}?serial=${device.serial}`, {
      token: installer,
    });
    expect(devicePageSchema.parse(found.body).items).toEqual([device]);
    const others = devicePageSchema.parse(
      (
        await t.call('GET', `/config/fleet/sites/installs/${IDS.siteOfB}`, {
          token: (await t.login('installerB')).access_token,
        })
      ).body,
    );
    const foreign = others.items[0];
    if (!foreign) throw new Error('seed has no device at B’s site');
    const hidden = await t.call('GET', `/config/install/device/${foreign.modelId}?serial=${foreign.serial}`, {
      token: installer,
    });
    expect(hidden.status).toBe(404);
    const bad = await t.call('GET', '/config/install/device/HX-5000?serial=nonsense', { token: installer });
    expect(bad.body).toMatchObject({ code: 'invalid_input', field: 'serial' });
  });
});
