import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeviceStatus, latestReadingSchema, seriesSchema } from '../../contracts/monitoring.ts';
import type { Page } from '../../contracts/page.ts';
import { siteSchema } from '../../contracts/sites.ts';
import { preferredType } from '../../server/http/accept-type.ts';
import { ensurePartitions } from '../../server/monitoring/telemetry/partitions.ts';
import type { Reading } from '../../server/monitoring/telemetry/read-frame.ts';
import { foldRollups } from '../../server/monitoring/telemetry/rollup-fold.ts';
import { storeBatch } from '../../server/monitoring/telemetry/store-batch.ts';
import { DayClock, dayClock } from '../../server/monitoring/telemetry/time-buckets.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

/**
 * What an integrator's script does with nothing but an API key: list its sites and devices, read a
 * device's latest values and a day's series, as JSON and, for a spreadsheet, as CSV (the `Accept`
 * header decides; JSON stays the default; an `Accept` that allows neither answers 406).
 */
let t: TestServer;
let key = '';
let otherKey = '';
let siteId = 0;
const SERIAL = 'HX5K-26-700001';
const STEP = 300_000;
const ZONE = 'Europe/Berlin';

/** A call made with nothing but the key, as a script would make it. */
const withKey = (path: string, accept?: string, as = key) =>
  t.call('GET', path, { token: as, apiKey: null, headers: accept === undefined ? {} : { accept } });

/** Yesterday on the site's clock: [its midnight, the next midnight). */
function yesterday(): { from: number; to: number } {
  const clock = dayClock(ZONE);
  const day = clock.dayOf(Date.now() - 86_400_000);
  return { from: clock.startOf(day), to: clock.startOf(DayClock.next(day)) };
}

/** The readings of the day: every 5 minutes, power with a fraction, the grid exporting (below 0) at noon. */
function valuesAt(at: number): Record<string, number> {
  const minute = Math.floor(at / 60_000) % 1440;
  return {
    pvPower: 1000 + minute + 0.25,
    gridPower: minute > 600 && minute < 900 ? -250.5 : 120,
    batterySoc: 50,
  };
}

/** The instant on the zone's clock as Intl writes it with its long offset, read independently of the server. */
function expectedLocal(at: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).slice(3);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** CSV lines split into cells (the series' cells hold no separator, quote or line break). */
function csvRows(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\r\n')
    .map((line) => line.split(','));
}

beforeAll(async () => {
  t = await startTestServer({ API_KEY_RATE_LIMIT: '10000' });
  const installer = (await t.login('installerA')).access_token;
  const created = await t.call('POST', '/config/sites', {
    token: installer,
    body: {
      name: 'Spreadsheet site',
      displayAddress: 'Marienplatz 1, 80331 München, Germany',
      streetName: 'Marienplatz',
      locality: 'München',
      country: 'DE',
      latitude: 48.1372,
      longitude: 11.5755,
    },
  });
  const site = siteSchema.parse(created.body);
  expect(site.timeZone).toBe(ZONE);
  siteId = site.id;

  const { db, monitoring } = t.server.ctx;
  const device = await db
    .insertInto('devices')
    .values({ model_id: 'HX-5000', serial: SERIAL, name: 'Garage inverter', site_id: siteId })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { from, to } = yesterday();
  await ensurePartitions(db, from, Date.now());
  const readings: Reading[] = [];
  for (let at = from, step = 0; at < to; at += STEP, step += 1)
    readings.push({
      deviceId: device.id,
      serial: SERIAL,
      modelId: 'HX-5000',
      deviceTime: at,
      receivedAt: at,
      flags: 0,
      values: { ...valuesAt(at), energyTotal: 100 + step * 0.25 },
    });
  await storeBatch(db, readings, (model) => monitoring.catalogue.product(model)?.spec);
  await foldRollups(db, Date.now());

  const keyOf = async (token: string) => {
    const answer = await t.call('POST', '/config/fleet/api-keys', {
      token,
      body: { name: 'script', scope: 'read' },
    });
    expect(answer.status).toBe(201);
    return (answer.body as { key: string }).key;
  };
  key = await keyOf(installer);
  otherKey = await keyOf((await t.login('installerB')).access_token);
});
afterAll(() => t?.close());

describe('a script with nothing but a key', () => {
  it("lists its sites and devices, reads a device's latest values and a day's series as JSON and CSV", async () => {
    const me = await withKey('/monitoring/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: IDS.installerA });

    const sites = await withKey(`/config/fleet/sites/all/${IDS.installerA}/0?q=Spreadsheet`);
    expect(sites.status).toBe(200);
    expect((sites.body as Page<{ id: number }>).items.map((s) => s.id)).toEqual([siteId]);

    const devices = await withKey(`/monitoring/devices?siteId=${siteId}`);
    expect(devices.status).toBe(200);
    expect((devices.body as Page<DeviceStatus>).items.map((d) => d.serial)).toEqual([SERIAL]);

    const latest = latestReadingSchema.parse((await withKey(`/monitoring/devices/${SERIAL}/latest`)).body);
    const { from, to } = yesterday();
    expect(latest.values).toMatchObject(valuesAt(to - STEP));
    expect(latest.units).toMatchObject({ pvPower: 'W' });

    const range = `metric=pvPower&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
    const json = await withKey(`/monitoring/devices/${SERIAL}/series?${range}`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.headers.get('vary')).toMatch(/(^|, )Accept(,|$)/);
    const series = seriesSchema.parse(json.body);
    expect(series).toMatchObject({
      metric: 'pvPower',
      unit: 'W',
      step: '5min',
      timeZone: ZONE,
      partial: false,
    });
    // A day on the site's clock: 24 hours of 5-minute steps (23 or 25 across a clock change).
    expect(series.points).toHaveLength((to - from) / STEP);

    const csv = await withKey(`/monitoring/devices/${SERIAL}/series?${range}`, 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="${SERIAL}-pvPower-${series.from.slice(0, 10)}.csv"`,
    );
    expect(csv.headers.get('vary')).toMatch(/(^|, )Accept(,|$)/);
    // The key's limit holds for the CSV as for any call.
    expect(csv.headers.get('ratelimit')).toMatch(/^"key";r=\d+;t=\d+$/);
    const [header, ...rows] = csvRows(csv.body as string);
    expect(header).toEqual(['"time (UTC)"', `"time (${ZONE})"`, '"pvPower (W)"']);
    // One line per point of the JSON, the same instants and the same numbers, unformatted.
    expect(rows).toEqual(
      series.points.map(([at, value]) => [
        `"${new Date(at).toISOString()}"`,
        `"${expectedLocal(at)}"`,
        String(value),
      ]),
    );
    // The day starts at the site's midnight.
    expect(rows[0]?.[1]).toMatch(/T00:00:00\+0[12]:00"$/);
  });

  it("writes a site's negative numbers as numbers, not as text made safe", async () => {
    const { from, to } = yesterday();
    const range = `metric=grid&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
    const json = seriesSchema.parse((await withKey(`/monitoring/sites/${siteId}/series?${range}`)).body);
    const csv = await withKey(`/monitoring/sites/${siteId}/series?${range}`, 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain(`site-${siteId}-grid-`);
    const [header, ...rows] = csvRows(csv.body as string);
    expect(header).toEqual(['"time (UTC)"', `"time (${ZONE})"`, '"grid (W)"']);
    expect(rows.map((row) => row[2])).toEqual(json.points.map(([, value]) => String(value)));
    expect(rows.map((row) => row[2])).toContain('-250.5');
    expect(rows.map((row) => row[2])).toContain('120');
  });
});

describe('which format a series answers in', () => {
  const path = () => {
    const { from, to } = yesterday();
    return `/monitoring/devices/${SERIAL}/series?metric=pvPower&step=1h&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
  };

  it.each([
    [undefined, 'application/json'],
    ['*/*', 'application/json'],
    ['application/json', 'application/json'],
    ['application/*', 'application/json'],
    ['text/csv, application/json', 'application/json'],
    ['text/csv;q=0.5, application/json', 'application/json'],
    ['text/csv', 'text/csv'],
    ['TEXT/CSV; charset=utf-8', 'text/csv'],
    ['text/*', 'text/csv'],
    ['application/json;q=0.4, text/csv;q=0.6', 'text/csv'],
    ['application/json;q=0, */*', 'text/csv'],
    ['text/html, text/csv;q=0.1', 'text/csv'],
    ['not a media type', 'application/json'],
  ])('Accept %j answers %s', async (accept, type) => {
    const answer = await withKey(path(), accept);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(new RegExp(`^${type}`));
    expect(answer.headers.get('vary')).toMatch(/(^|, )Accept(,|$)/);
  });

  it.each([
    'text/html',
    'image/png',
    'application/xml, text/plain',
    'application/json;q=0, text/csv;q=0',
    'text/*;q=0, application/*;q=0',
  ])('Accept %j answers 406, naming both types', async (accept) => {
    const answer = await withKey(path(), accept);
    expect(answer.status).toBe(406);
    expect(answer.body).toMatchObject({ code: 'not_acceptable' });
    expect((answer.body as { message: string }).message).toContain('application/json or text/csv');
    expect(answer.headers.get('vary')).toMatch(/(^|, )Accept(,|$)/);
    // The site's series too.
    const site = await withKey(
      path().replace(`devices/${SERIAL}`, `sites/${siteId}`).replace('pvPower', 'production'),
      accept,
    );
    expect(site.status).toBe(406);
  });

  it('answers CSV to no one who may not see the device or site: 404 as for JSON', async () => {
    expect((await withKey(path(), 'text/csv', otherKey)).status).toBe(404);
    const site = path().replace(`devices/${SERIAL}`, `sites/${siteId}`).replace('pvPower', 'production');
    expect((await withKey(site, 'text/csv', otherKey)).status).toBe(404);
  });

  it('answers a bad range with the same 400 whatever the format asked for', async () => {
    const answer = await withKey(
      `/monitoring/devices/${SERIAL}/series?metric=pvPower&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`,
      'text/csv',
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field: 'from' });
  });

  it('answers 200 or 406 to any Accept header, never a failure', async () => {
    const token = fc.constantFrom('text', 'csv', 'application', 'json', '*', 'html', 'q', '0', '1', '0.5');
    const accept = fc
      .array(fc.oneof(token, fc.constantFrom('/', ';', ',', '=', ' ', '.', '"')), { maxLength: 16 })
      .map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(fc.oneof(accept, fc.string({ maxLength: 40 })), async (header) => {
        const answer = await withKey(path(), header.replace(/[\r\n\0]/g, ' '));
        expect([200, 406]).toContain(answer.status);
        const wanted = preferredType(header.replace(/[\r\n\0]/g, ' ').trim(), [
          'application/json',
          'text/csv',
        ]);
        if (answer.status === 200)
          expect(answer.headers.get('content-type')).toMatch(new RegExp(`^${wanted}`));
      }),
      { numRuns: 100 },
    );
  });

  it('is in the OpenAPI document: a series answers JSON or CSV, and 406', async () => {
    const document = (await t.call('GET', '/monitoring/openapi.json', { apiKey: null })).body as {
      paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    for (const route of ['/devices/{serial}/series', '/sites/{siteId}/series']) {
      const responses = document.paths[route]?.get.responses ?? {};
      expect(Object.keys(responses['200']?.content ?? {})).toEqual(['application/json', 'text/csv']);
      expect(responses['406']).toBeDefined();
    }
  });
});

describe("a zone's clock", () => {
  it('writes an instant with the offset it had then, across both daylight-saving changes', () => {
    const chicago = new DayClock('America/Chicago');
    expect(chicago.localTime(Date.parse('2026-03-04T13:05:00Z'))).toBe('2026-03-04T07:05:00-06:00');
    expect(chicago.localTime(Date.parse('2026-03-08T07:59:59Z'))).toBe('2026-03-08T01:59:59-06:00');
    expect(chicago.localTime(Date.parse('2026-03-08T08:00:00Z'))).toBe('2026-03-08T03:00:00-05:00');
    // The hour from 1:00 to 2:00 happens twice on 1 November: the offset tells them apart.
    expect(chicago.localTime(Date.parse('2026-11-01T06:30:00Z'))).toBe('2026-11-01T01:30:00-05:00');
    expect(chicago.localTime(Date.parse('2026-11-01T07:30:00Z'))).toBe('2026-11-01T01:30:00-06:00');
    expect(new DayClock('Asia/Kathmandu').localTime(Date.parse('2026-01-01T00:00:00Z'))).toBe(
      '2026-01-01T05:45:00+05:45',
    );
    expect(new DayClock('UTC').localTime(Date.parse('2199-12-31T23:59:59Z'))).toBe(
      '2199-12-31T23:59:59+00:00',
    );
  });
});
