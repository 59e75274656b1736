import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { USERS } from './app-server.ts';
import { expectLocation, renderApp, startAppServerForFile } from './render-app.tsx';

const server = startAppServerForFile();
let app: ReturnType<typeof renderApp> | undefined;
beforeEach(() => window.localStorage.clear());
afterEach(() => {
  app?.cleanup();
  server().override(undefined);
  vi.restoreAllMocks();
});

const field = (name: RegExp) => screen.getByRole<HTMLInputElement>('textbox', { name });
/** The site form's country: a list to search, so a combobox. */
const country = () => screen.getByRole<HTMLInputElement>('combobox', { name: /^Country/ });

// Alone this takes 7 to 11 s (six fields and a country typed a key at a time, two saves, in jsdom);
// in a whole run, beside the other workers and the Chromium files, it took 30.3 s once, over the
// 30 s default. The time is jsdom's: each query by role works out styles and names (~40 ms a query).
it('keeps a new site as typed when the service refuses it, and saves it on the next try', async () => {
  app = renderApp('/login', server());
  await app.signIn(USERS.installer.email, USERS.installer.password);
  await expectLocation(app, '/landing');
  await app.router.navigate({ href: '/create-site' });
  await screen.findByRole('heading', { name: 'Create site', level: 1 });
  const typed: [RegExp, string][] = [
    [/^Site name/, 'Harbour Workshop'],
    [/^Street\s*\*?$/, 'Harbour Rd'],
    [/^Street number/, '12'],
    [/^Town or city/, 'Portside'],
    // A decimal comma, as a German or French keyboard writes it.
    [/^Latitude/, '-33,86'],
    [/^Longitude/, '151.2'],
  ];
  for (const [name, value] of typed) await app.user.type(field(name), value);
  // The country is chosen from the list, found by typing part of its name.
  await app.user.type(country(), 'Austral');
  await app.user.keyboard('{ArrowDown}{Enter}');

  server().override((method, path) =>
    method === 'POST' && path === '/config/sites'
      ? Response.json({ message: 'The database is busy; try again', code: 'unavailable' }, { status: 503 })
      : undefined,
  );
  await app.user.click(screen.getByRole('button', { name: 'Create site' }));
  const alert = await screen.findByRole('alert');
  within(alert).getByText('The site was not saved');
  expect(alert.textContent).toContain('The database is busy; try again');
  expect(app.location()).toBe('/create-site');
  for (const [name, value] of typed) expect(field(name).value).toBe(value);
  expect(country().value).toBe('Australia');

  server().override(undefined);
  await app.user.click(screen.getByRole('button', { name: 'Create site' }));
  await waitFor(() => expect(app?.location()).toMatch(/^\/site-details\/\d+$/));
  await screen.findByRole('heading', { name: 'Harbour Workshop', level: 1 });
  // Saved as the numbers and the country code typed and chosen.
  await screen.findByText('-33.86000, 151.20000');
  expect(screen.getAllByText('12 Harbour Rd, Portside, AU').length).toBeGreaterThan(0);
  // The zone suggested from the position typed was saved with the site.
  await screen.findByText(/^Australia\/Sydney \(/);
}, 60_000);

/** Opens one's own page from the menu's Account section ("Profile"). */
async function openProfile(current: ReturnType<typeof renderApp>) {
  await current.user.click(await screen.findByRole('link', { name: 'Profile' }));
  await waitFor(() => expect(current.location()).toMatch(/^\/user-details\/\d+$/));
}

it('keeps my profile as typed when the service refuses it, and saves it on the next try', async () => {
  app = renderApp('/login', server());
  await app.signIn(USERS.installer.email, USERS.installer.password);
  await expectLocation(app, '/landing');
  await openProfile(app);
  await app.user.click(await screen.findByRole('button', { name: 'Edit profile' }));
  const dialog = await screen.findByRole('dialog', { name: 'Profile' });
  const name = await within(dialog).findByRole<HTMLInputElement>('textbox', { name: /^Name/ });
  await app.user.clear(name);
  await app.user.type(name, 'Sam Q. Solarpros');

  server().override((method, path) =>
    method === 'PUT' && /^\/config\/users\/\d+$/.test(path)
      ? Response.json({ message: 'The database is busy; try again', code: 'unavailable' }, { status: 503 })
      : undefined,
  );
  await app.user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
  const alert = await within(dialog).findByRole('alert');
  within(alert).getByText('Your profile was not saved');
  expect(alert.textContent).toContain('The database is busy; try again');
  expect(name.value).toBe('Sam Q. Solarpros');

  server().override(undefined);
  await app.user.click(within(dialog).getByRole('button', { name: 'Save profile' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Profile' })).toBeNull());
  // The page and the menu both show the new name.
  await screen.findByRole('heading', { name: 'Sam Q. Solarpros', level: 1 });
  await waitFor(() => expect(screen.getByTestId('user-name').textContent).toContain('Sam Q. Solarpros'));
});

it('says why my profile could not be read, and reads it again on "Try again"', async () => {
  app = renderApp('/login', server());
  await app.signIn(USERS.installer.email, USERS.installer.password);
  await expectLocation(app, '/landing');
  server().override((method, path) =>
    method === 'GET' && /^\/config\/users\/\d+$/.test(path)
      ? Response.json({ message: 'The database is busy; try again', code: 'unavailable' }, { status: 503 })
      : undefined,
  );
  await openProfile(app);
  await screen.findByText(/The database is busy; try again/);

  server().override(undefined);
  await app.user.click(screen.getByRole('button', { name: 'Try again' }));
  await screen.findByRole('button', { name: 'Edit profile' });
});

/** Signs the admin in and answers the first site, which they see. */
async function adminWithFirstSite() {
  const view = renderApp('/login', server());
  app = view;
  await view.signIn(USERS.admin.email, USERS.admin.password);
  await expectLocation(view, '/landing');
  const site = await server()
    .server.ctx.db.selectFrom('sites')
    .select(['id', 'name'])
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return { view, site };
}

it('keeps a site\'s page up when its list of changes cannot be read, says so in its place, and reads it again on "Try again"', async () => {
  const { view, site } = await adminWithFirstSite();
  const siteName = site.name;
  server().override((method, path) =>
    method === 'GET' && /^\/config\/fleet\/sites\/\d+\/audit$/.test(path)
      ? Response.json({ message: 'The database is busy; try again', code: 'unavailable' }, { status: 503 })
      : undefined,
  );
  await view.router.navigate({ href: `/site-details/${site.id}` });
  await screen.findByRole('heading', { name: siteName, level: 1 });
  const changes = await screen.findByRole('region', { name: 'Changes' });
  const alert = await within(changes).findByRole('alert');
  expect(alert.textContent).toContain('The database is busy; try again');
  // The rest of the page is still there.
  screen.getByRole('heading', { name: siteName, level: 1 });

  server().override(undefined);
  await view.user.click(within(changes).getByRole('button', { name: 'Try again' }));
  await waitFor(() => expect(within(changes).queryByRole('alert')).toBeNull());
  await waitFor(() =>
    expect(
      within(changes).queryByRole('list', { name: 'Changes, newest first' }) ??
        within(changes).queryByText(/^No devices were put on/),
    ).not.toBeNull(),
  );
});

it('keeps the report button busy while the report is made, says why it failed, and downloads on the next press', async () => {
  const { view, site } = await adminWithFirstSite();
  // jsdom saves no files: count what the app hands over.
  URL.createObjectURL = () => 'blob:test/report';
  URL.revokeObjectURL = () => {};
  const downloads = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  let answer: (response: Response) => void = () => {};
  const reports: string[] = [];
  server().override((method, path) => {
    if (!path.endsWith('/commissioning-report')) return undefined;
    reports.push(method);
    return new Promise<Response>((resolve) => {
      answer = resolve;
    });
  });
  await view.router.navigate({ href: `/site-details/${site.id}` });
  await screen.findByRole('heading', { name: site.name, level: 1 });
  const button = screen.getByRole('button', { name: 'Commissioning report' });

  await view.user.click(button);
  await screen.findByText('Commissioning report: working…');
  expect(button.hasAttribute('data-loading')).toBe(true);
  // A press while it runs asks for nothing more.
  fireEvent.click(button);
  expect(reports).toEqual(['GET']);
  answer(Response.json({ message: 'The database is busy; try again', code: 'unavailable' }, { status: 503 }));
  const alert = await screen.findByRole('alert');
  // The service's words are read from the file call's error in a browser (tests/e2e/commissioning):
  // jsdom's Blob is not the one the answer comes in.
  within(alert).getByText('Commissioning report did not work');
  expect(button.hasAttribute('data-loading')).toBe(false);
  expect(downloads).not.toHaveBeenCalled();

  // The service's PDF is made and read in tests/server and tests/e2e (its fonts do not load under
  // jsdom): here it answers a file of its own.
  server().override((_, path) =>
    path.endsWith('/commissioning-report')
      ? new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf' } })
      : undefined,
  );
  await view.user.click(button);
  await screen.findByText('The report was downloaded.');
  expect(screen.queryByRole('alert')).toBeNull();
  expect(downloads).toHaveBeenCalledTimes(1);
});
