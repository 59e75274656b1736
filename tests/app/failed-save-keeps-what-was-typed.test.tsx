import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { USERS } from './app-server.ts';
import { expectLocation, renderApp, startAppServerForFile } from './render-app.tsx';

const server = startAppServerForFile();
let app: ReturnType<typeof renderApp> | undefined;
beforeEach(() => window.localStorage.clear());
afterEach(() => {
  app?.cleanup();
  server().override(undefined);
});

const field = (name: RegExp) => screen.getByRole<HTMLInputElement>('textbox', { name });

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
    [/^Country/, 'AU'],
    [/^Latitude/, '-33.86'],
    [/^Longitude/, '151.2'],
  ];
  for (const [name, value] of typed) await app.user.type(field(name), value);

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

  server().override(undefined);
  await app.user.click(screen.getByRole('button', { name: 'Create site' }));
  await waitFor(() => expect(app?.location()).toMatch(/^\/site-details\/\d+$/));
  await screen.findByRole('heading', { name: 'Harbour Workshop', level: 1 });
});

it('keeps my profile as typed when the service refuses it, and saves it on the next try', async () => {
  app = renderApp('/login', server());
  await app.signIn(USERS.installer.email, USERS.installer.password);
  await expectLocation(app, '/landing');
  await app.user.click(await screen.findByRole('button', { name: 'Profile' }));
  const dialog = await screen.findByRole('dialog', { name: 'Profile' });
  const name = await within(dialog).findByRole<HTMLInputElement>('textbox', { name: /^Name/ });
  await app.user.clear(name);
  await app.user.type(name, 'Sam Q. Solarpros');

  server().override((method, path) =>
    method === 'PUT' && path === '/config/users/me/profile'
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
  await waitFor(() => expect(screen.getByTestId('user-name').textContent).toContain('Sam Q. Solarpros'));
});
