import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { USERS } from './app-server.ts';
import { setViewport } from './dom-setup.ts';
import { expectLocation, renderApp, startAppServerForFile } from './render-app.tsx';

const server = startAppServerForFile();
let app: ReturnType<typeof renderApp> | undefined;
beforeEach(() => window.localStorage.clear());
afterEach(() => {
  app?.cleanup();
  setViewport('wide');
});

async function usersListAt(viewport: 'wide' | 'phone') {
  setViewport(viewport);
  app = renderApp('/login', server());
  await app.signIn(USERS.installer.email, USERS.installer.password);
  await expectLocation(app, '/landing');
  await app.router.navigate({ href: '/users-list' });
  await screen.findByRole('heading', { name: 'Users', level: 1 });
}

it('shows a list as a table with column headers on a wide screen', async () => {
  await usersListAt('wide');
  const table = await screen.findByRole('table', { name: 'Users' });
  within(table).getByRole('columnheader', { name: 'E-mail' });
  within(table).getByRole('link', { name: USERS.owner.name });
  expect(screen.queryByRole('list', { name: 'Users' })).toBeNull();
});

it('shows the same rows as cards, each field named, on a phone', async () => {
  await usersListAt('phone');
  const cards = await screen.findByRole('list', { name: 'Users' });
  const owner = within(cards)
    .getAllByRole('listitem')
    .find((card) => within(card).queryByRole('link', { name: USERS.owner.name }));
  expect(owner?.textContent).toContain(`E-mail: ${USERS.owner.email}`);
  expect(screen.queryByRole('table', { name: 'Users' })).toBeNull();
});
