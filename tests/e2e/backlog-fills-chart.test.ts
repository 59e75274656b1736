import { randomInt } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledFleet } from '../../src/device-sim/online/bundled-fleet.ts';
import { pastReadings, SocketDevice } from '../../src/device-sim/online/socket-device.ts';
import { TcpLink } from '../tcp-link.ts';
import { ADMIN, appUrl, launchChromium } from './browser.ts';
import { heading, screenshots, signedInPage } from './screens-helpers.ts';
import { accessToken, configCall } from './service-calls.ts';

/**
 * A device whose link was down for a quarter of an hour: it took a reading every 10 s all the same
 * and kept them. Its chart shows nothing after the link went down; once the link is back, the
 * device sends what it kept and the chart fills the gap, step by step, up to now.
 */
const SITE = 1;
const GAP_MS = 15 * 60_000;

let browser: Browser;
let admin: { context: BrowserContext; page: Page; errors: string[] };
let link: TcpLink | undefined;
const devices: SocketDevice[] = [];
let serial = '';
let secret = '';
/** The devices' clock: set back to take the readings of the past, else the real one. */
let clock: number | undefined;
let fleet: Awaited<ReturnType<typeof bundledFleet>>;

beforeAll(async () => {
  browser = await launchChromium();
  admin = await signedInPage(browser, ADMIN);
  // A new device on the site, that never reported: its chart is its own.
  serial = `HX5K-26-${String(randomInt(200_000, 999_999)).padStart(6, '0')}`;
  const installed = await configCall('POST', `/fleet/sites/${SITE}/installs`, {
    token: await accessToken(ADMIN),
    body: { serial, modelId: 'HX-5000', name: 'Backlog inverter' },
  });
  expect(installed.status).toBe(201);
  secret = (installed.body as { secret: string }).secret;
  fleet = await bundledFleet('public', () => clock ?? Date.now());
});
afterAll(async () => {
  await Promise.all(devices.map((device) => device.stop()));
  await link?.close();
  await browser?.close();
});

/**
 * The device online through `url`, with the readings it kept from `from` to `to` (and, `live`,
 * taking readings from now on); resolves once all it kept are acknowledged.
 */
async function sendKept(
  url: string,
  from: number,
  to: number,
  options: { live: boolean; onStart?: () => void },
): Promise<SocketDevice> {
  clock = from;
  const simulated = fleet.device(serial);
  const kept = pastReadings(
    (t) => {
      clock = t;
      return simulated.liveValuesFrame();
    },
    from,
    to,
    10,
  );
  clock = undefined;
  const acknowledged = new Promise<void>((resolve) => {
    const device = new SocketDevice({
      url,
      serialNumber: serial,
      modelId: 'HX-5000',
      secret,
      device: simulated,
      kept,
      binary: true,
      // Not live: the first reading of its own would come after the test.
      firstTelemetryMs: options.live ? 0 : 3_600_000,
      backoff: { firstMs: 100, maxMs: 500 },
      log: () => {},
      onAcknowledged: () => {
        if (device.kept === 0) resolve();
      },
    });
    devices.push(device);
    device.start();
    options.onStart?.();
  });
  await acknowledged;
  return devices.at(-1) as SocketDevice;
}

/** The power chart of the device over the last 24 hours: its number of points, and its summary. */
async function powerChart(page: Page) {
  const history = page.getByRole('region', { name: 'History' });
  const chart = history.getByRole('slider', { name: /^Power: / });
  await chart.waitFor();
  const summary = history.getByRole('region', { name: 'Power' }).locator('figcaption');
  // A device installed minutes ago: the caption first says its data begins late ("Data from …").
  await summary.filter({ hasText: /Last 24 hours\. / }).waitFor();
  return {
    points: Number(await chart.getAttribute('aria-valuemax')) + 1,
    summary: await summary.innerText(),
  };
}

/** Open the device until its chart has at least `points` points (the rollups take in a window at a time). */
async function chartWith(page: Page, points: number) {
  for (;;) {
    await page.goto(appUrl(`/device-details/HX-5000?serial=${serial}`));
    await heading(page, serial).waitFor();
    const chart = await powerChart(page);
    if (chart.points >= points) return chart;
  }
}

describe('a device whose link was down', () => {
  it('fills the gap in its chart with what it kept, once its link is back', async () => {
    const { page } = admin;
    const base = appUrl('/').replace(/^http/, 'ws').replace(/\/$/, '');
    const wentDown = Date.now() - GAP_MS;
    // Before the link went down: ten minutes of readings, as the device sent them then.
    const before = await sendKept(
      `${base}/config/service-comms/devices/ws`,
      wentDown - 10 * 60_000,
      wentDown,
      {
        live: false,
      },
    );
    await before.stop();
    const first = await chartWith(page, 2);
    await screenshots(page, 'backlog-gap', () => heading(page, serial).waitFor());

    // The quarter of an hour the link was down: readings kept, then sent once it is back.
    link = await TcpLink.open(Number(new URL(appUrl('/')).port));
    link.cut();
    await sendKept(`ws://127.0.0.1:${link.port}/config/service-comms/devices/ws`, wentDown, Date.now(), {
      live: true,
      onStart: () => link?.restore(),
    });
    // Every 5-minute step of the gap now has its point.
    const filled = await chartWith(page, first.points + 3);
    expect(filled.points).toBeGreaterThanOrEqual(first.points + 3);
    expect(filled.summary).not.toBe(first.summary);
    await screenshots(page, 'backlog-filled', () => heading(page, serial).waitFor());
    expect(admin.errors).toEqual([]);
  });
});
