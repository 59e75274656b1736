import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Device, devicePageSchema } from '../../contracts/devices.ts';
import { type Site, sitePageSchema, siteSchema } from '../../contracts/sites.ts';
import { userPageSchema, userSchema } from '../../contracts/users.ts';
import { IDS, startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
let admin: string;
let installer: string;
let installerId: number;
/** The new installer's sites, in the order they were created. */
const created: Site[] = [];
// Three-letter names in no order; simple letters sort alike in every collation PostgreSQL uses.
const NAMES =
  'qox bim zap ace mud kel fig rye dot wex hub jag nip cup val sol gem ily tam yew lark oat pew'.split(' ');

beforeAll(async () => {
  t = await startTestServer();
  admin = (await t.login('admin')).access_token;
  const made = await t.call('POST', '/config/fleet/users/create-installer', {
    token: admin,
    body: { main_email: 'sorter@sort.example', name: 'Sol Sorter', password: 'Sorting#2026' },
  });
  installerId = userSchema.parse(made.body).id;
  const login = await t.call('POST', '/config/auth/v2/login', {
    body: { main_email: 'sorter@sort.example', password: 'Sorting#2026' },
  });
  installer = (login.body as { access_token: string }).access_token;
  for (const [index, name] of NAMES.entries()) {
    const answer = await t.call('POST', '/config/sites', {
      token: installer,
      body: {
        name: `Site ${name}`,
        displayAddress: `${index + 1} Sort Street`,
        locality: name.toUpperCase(),
        latitude: 1,
        longitude: 1,
      },
    });
    created.push(siteSchema.parse(answer.body));
  }
});
afterAll(() => t.close());

/** Every page of a list, in order, with `pageSize` rows a page. */
async function allPages<T>(
  path: (page: number) => string,
  token: string,
  parse: (body: unknown) => { items: T[]; total: number },
) {
  const rows: T[] = [];
  for (let page = 0; page < 100; page++) {
    const answer = await t.call('GET', path(page), { token });
    expect(answer.status).toBe(200);
    const body = parse(answer.body);
    rows.push(...body.items);
    if (rows.length >= body.total || body.items.length === 0) break;
  }
  return rows;
}

const sitesSorted = (sort: string, extra = '') =>
  allPages(
    (page) => `/config/fleet/site-list/${installerId}/${page}?pageSize=5&sort=${sort}${extra}`,
    installer,
    (body) => sitePageSchema.parse(body),
  );
const names = (sites: Site[]) => sites.map((site) => site.name);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('lists sort on the server, across every page', () => {
  it('sorts sites by name A–Z over five pages, so page 2 goes on where page 1 ended', async () => {
    const expected = NAMES.map((name) => `Site ${name}`).sort(byText);
    expect(names(await sitesSorted('name'))).toEqual(expected);
    expect(names(await sitesSorted('-name'))).toEqual([...expected].reverse());
    const second = sitePageSchema.parse(
      (
        await t.call('GET', `/config/fleet/site-list/${installerId}/1?pageSize=5&sort=name`, {
          token: installer,
        })
      ).body,
    );
    expect(second.items[0]?.name).toBe(expected[5]);
  });

  it('puts the newest site first on page 0 with -id, and sorts by town', async () => {
    const newest = await sitesSorted('-id');
    expect(newest.map((site) => site.id)).toEqual(created.map((site) => site.id).reverse());
    const towns = (await sitesSorted('locality')).map((site) => site.locality);
    expect(towns).toEqual(NAMES.map((name) => name.toUpperCase()).sort(byText));
  });

  it('sorts a search too, and the admin list of every site', async () => {
    const found = await sitesSorted('-name', '&q=Site%20');
    expect(names(found)).toEqual(
      NAMES.map((name) => `Site ${name}`)
        .sort(byText)
        .reverse(),
    );
    const everySite = await allPages(
      (page) => `/config/fleet/sites/all/${IDS.admin}/${page}?pageSize=100&sort=-id`,
      admin,
      (body) => sitePageSchema.parse(body),
    );
    const ids = everySite.map((site) => site.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids[0]).toBe(created.at(-1)?.id);
  });

  it('sorts every device by serial across pages, the same on both device lists', async () => {
    const unsorted = await allPages(
      (page) => `/config/fleet/devices/all/${IDS.admin}?page=${page}&pageSize=100`,
      admin,
      (body) => devicePageSchema.parse(body),
    );
    const serials = (rows: Device[]) => rows.map((device) => device.serial);
    const sorted = await allPages(
      (page) => `/config/fleet/devices/all/${IDS.installerA}?page=${page}&pageSize=7&sort=serial`,
      admin,
      (body) => devicePageSchema.parse(body),
    );
    const mine = await allPages(
      (page) => `/config/fleet/device-list/${IDS.installerA}/${page}?pageSize=100`,
      admin,
      (body) => devicePageSchema.parse(body),
    );
    expect(serials(sorted)).toEqual(serials(mine).sort(byText));
    expect(unsorted.length).toBeGreaterThan(sorted.length);
    const newest = await allPages(
      (page) => `/config/fleet/sites/installs/${IDS.siteOfA}?page=${page}&pageSize=1&sort=-installed`,
      admin,
      (body) => devicePageSchema.parse(body),
    );
    const times = newest.map((device) => device.installedAt);
    expect(times).toEqual([...times].sort(byText).reverse());
  });

  it('sorts users by name across pages', async () => {
    for (const name of ['Zoe Zed', 'Abe Able', 'Max Mid']) {
      await t.call('POST', '/config/fleet/users/create-owner', {
        token: installer,
        body: { main_email: `${name.split(' ')[0]?.toLowerCase()}@sort.example`, name },
      });
    }
    const users = await allPages(
      (page) => `/config/fleet/user-list/${installerId}/${page}?pageSize=1&sort=name&q=sort.example`,
      installer,
      (body) => userPageSchema.parse(body),
    );
    expect(users.map((user) => user.name)).toEqual(['Abe Able', 'Max Mid', 'Sol Sorter', 'Zoe Zed']);
    const byRole = await allPages(
      (page) => `/config/users/role/owner?page=${page}&pageSize=1&sort=-name&q=sort.example`,
      installer,
      (body) => userPageSchema.parse(body),
    );
    expect(byRole.map((user) => user.name)).toEqual(['Zoe Zed', 'Max Mid', 'Abe Able']);
  });

  it('answers 400 naming sort for a key the list does not sort by', async () => {
    const answer = await t.call('GET', `/config/fleet/site-list/${installerId}/0?sort=serial`, {
      token: installer,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_input', field: 'sort' });
    const blank = await t.call('GET', `/config/fleet/site-list/${installerId}/0?sort=`, { token: installer });
    expect(blank.status).toBe(200);
  });

  it('answers a page past the end with no rows and the true total', async () => {
    const past = sitePageSchema.parse(
      (await t.call('GET', `/config/fleet/site-list/${installerId}/9?pageSize=5`, { token: installer })).body,
    );
    expect(past).toMatchObject({ items: [], page: 9, total: NAMES.length });
  });
});
