import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { USERS } from './app-server.ts';
import { expectLocation, renderApp, startAppServerForFile } from './render-app.tsx';

const server = startAppServerForFile();
let app: ReturnType<typeof renderApp> | undefined;

/** What the app handed the browser to save: the file name and its text. */
interface Saved {
  name: string;
  text: string;
}
let saved: Promise<Saved>[] = [];

/** jsdom's Blob has no `text()`. */
const readText = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

beforeEach(() => {
  window.localStorage.clear();
  saved = [];
  // jsdom has no object URLs and does not save files: keep the blob the link points at.
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) saved.push(readText(blob).then((text) => ({ name: this.download, text })));
  });
});
afterEach(() => {
  app?.cleanup();
  server().override(undefined);
  vi.restoreAllMocks();
});

async function signedInAt(path: string) {
  app = renderApp('/login', server());
  await app.signIn(USERS.installer.email, USERS.installer.password);
  await expectLocation(app, '/landing');
  await app.router.navigate({ href: path });
  return app;
}

/** Clicks an export button and answers the saved file once it has been handed over. */
async function exportWith(name: string | RegExp): Promise<Saved> {
  const before = saved.length;
  await app?.user.click(screen.getByRole('button', { name }));
  await waitFor(() => expect(saved.length).toBe(before + 1));
  return saved[before] as Promise<Saved>;
}

const lines = (csv: string) => csv.split('\r\n').filter(Boolean);
/** The cells of one line: every cell is quoted, quotes inside doubled. */
const cells = (line: string | undefined) =>
  [...(line ?? '').matchAll(/"((?:[^"]|"")*)"/g)].map((match) => (match[1] ?? '').replaceAll('""', '"'));
/** The total a pager shows ("1–50 of 70 · page 1 of 2"). */
const pagerTotal = () =>
  Number(/of (\d+) ·/.exec(screen.getByRole('navigation', { name: 'Pages' }).textContent ?? '')?.[1]);

describe('CSV export', () => {
  it('exports every site of the list, not only the page shown', async () => {
    await signedInAt('/sites-list');
    await screen.findByRole('heading', { name: 'Sites', level: 1 });
    const total = pagerTotal();
    expect(screen.getAllByRole('row').length - 1).toBeLessThan(total);
    const file = await exportWith('Export CSV');
    expect(file.name).toBe('sites.csv');
    const [header, ...rows] = lines(file.text);
    expect(cells(header)).toEqual(['Name', 'Address', 'Town', 'State', 'Site id']);
    expect(rows).toHaveLength(total);
  });

  it('keeps a site name a spreadsheet would split at ";" into a formula as text', async () => {
    const db = server().server.ctx.db;
    const site = await db
      .selectFrom('sites')
      .select(['id', 'name'])
      .where('installer_id', '=', 2)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('sites').set({ name: 'ZZ Semi;=1+1' }).where('id', '=', site.id).execute();
    try {
      await signedInAt('/sites-list');
      await screen.findByRole('heading', { name: 'Sites', level: 1 });
      const row = lines((await exportWith('Export CSV')).text).find((line) => line.includes('ZZ Semi'));
      expect(row?.startsWith(`"ZZ Semi;'=1+1",`)).toBe(true);
    } finally {
      await db.updateTable('sites').set({ name: site.name }).where('id', '=', site.id).execute();
    }
  });

  it('says why an export failed and leaves the list as it was', async () => {
    await signedInAt('/sites-list');
    await screen.findByRole('heading', { name: 'Sites', level: 1 });
    const total = pagerTotal();
    server().override((_, path) =>
      path.startsWith('/config/fleet/sites/all/')
        ? Response.json({ message: 'Service Unavailable', code: 'unavailable' }, { status: 503 })
        : undefined,
    );
    await app?.user.click(screen.getByRole('button', { name: 'Export CSV' }));
    const alert = await screen.findByRole('alert');
    within(alert).getByText('The export failed');
    expect(saved).toHaveLength(0);
    expect(pagerTotal()).toBe(total);
    screen.getByRole('button', { name: 'Export CSV' });
  });

  it('exports the sites of the current search only', async () => {
    await signedInAt('/sites-list');
    const field = await screen.findByRole('textbox', { name: /Search sites/ });
    await app?.user.type(field, 'Ave');
    await app?.user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(app?.location()).toContain('q=Ave'));
    await waitFor(() => expect(pagerTotal()).toBeGreaterThan(0));
    const total = pagerTotal();
    const [, ...rows] = lines((await exportWith('Export CSV')).text);
    expect(rows).toHaveLength(total);
  });

  it("exports a site's devices and the people with access from its details", async () => {
    await signedInAt('/sites-list');
    await screen.findByRole('heading', { name: 'Sites', level: 1 });
    // A long list renders only the rows in view, and jsdom has no view: take a site from the CSV.
    const [, firstSite] = lines((await exportWith('Export CSV')).text);
    const siteId = cells(firstSite).at(-1);
    const siteName = cells(firstSite)[0] ?? '';
    await app?.router.navigate({ href: `/site-details/${siteId}` });
    await screen.findByRole('heading', { name: siteName, level: 1 });

    const devices = await exportWith(`Export CSV of the devices at ${siteName}`);
    const [deviceHeader, ...deviceRows] = lines(devices.text);
    expect(cells(deviceHeader).slice(0, 3)).toEqual(['Serial', 'Model', 'Name']);
    const shown = within(screen.getByRole('table', { name: `Devices at ${siteName}` })).getAllByRole('row');
    expect(deviceRows).toHaveLength(shown.length - 1);

    const people = await exportWith(`Export CSV of the people with access to ${siteName}`);
    const [peopleHeader, ...peopleRows] = lines(people.text);
    expect(cells(peopleHeader)).toEqual(['Name', 'E-mail', 'Site roles', 'Access']);
    expect(peopleRows.some((row) => row.includes(USERS.installer.email))).toBe(true);
  });

  it("exports the sites of a user from the user's details", async () => {
    await signedInAt('/users-list');
    const table = await screen.findByRole('table', { name: 'Users' });
    const owner = within(table).getByRole('link', { name: USERS.owner.name });
    await app?.user.click(owner);
    await screen.findByRole('heading', { name: USERS.owner.name, level: 1 });
    const file = await exportWith(`Export CSV of the sites of ${USERS.owner.name}`);
    const [header, ...rows] = lines(file.text);
    expect(cells(header)).toEqual(['Site', 'Address']);
    const shown = within(screen.getByRole('table', { name: `Sites of ${USERS.owner.name}` })).getAllByRole(
      'row',
    );
    expect(rows).toHaveLength(shown.length - 1);
  });
});
