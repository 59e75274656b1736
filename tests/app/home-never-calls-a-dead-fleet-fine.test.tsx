import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { USERS } from './app-server.ts';
import { expectLocation, renderApp, startAppServerForFile } from './render-app.tsx';

/**
 * An installer whose devices are all offline (the demo's: installed weeks ago, never connected)
 * is never told the fleet is fine: Home says how many are offline and links to them, before any
 * alarm is raised and after the silence alarms are.
 */
const server = startAppServerForFile();
let app: ReturnType<typeof renderApp> | undefined;
beforeEach(() => window.localStorage.clear());
afterEach(() => app?.cleanup());

/** The number on Home's card `label`. */
function card(label: string): number {
  const region = screen.getByRole('region', { name: label });
  return Number((within(region).getAllByText(/^[\d,]+$/)[0]?.textContent ?? '').replace(/\D/g, ''));
}

async function home() {
  app = renderApp('/login', server());
  await app.signIn(USERS.installer.email, USERS.installer.password);
  await expectLocation(app, '/landing');
  await screen.findByRole('region', { name: 'Devices offline' });
}

it('says how many devices are offline, and never that every device is fine', async () => {
  await home();
  const offline = card('Devices offline');
  expect(offline).toBeGreaterThan(100);
  const status = screen.getByRole('status', { name: /Needs attention/ });
  within(status).getByRole('link', { name: `${offline.toLocaleString()} devices offline` });
  within(status).getByRole('link', { name: `${offline.toLocaleString()} of them never connected` });
  expect(screen.queryByText(/fine/)).toBeNull();
  expect(screen.queryByText(/All is well/)).toBeNull();
  const alarms = screen.getByRole('region', { name: 'Open alarms, newest first' });
  within(alarms).getByText(
    `${offline.toLocaleString()} devices offline, not yet for long enough to raise an alarm.`,
  );
});

it('counts the silence alarms once raised, the same number on the card and the link to them', async () => {
  const { alarms } = server().server.ctx.monitoring;
  const start = Date.now();
  for (let i = 1; i <= 50; i += 1) await alarms.sweepOffline(start + i * 20_000);
  await home();
  const open = card('Open alarms');
  expect(open).toBeGreaterThan(card('Devices in alarm'));
  screen.getByRole('link', { name: `See all ${open.toLocaleString()} open alarms` });
  const status = screen.getByRole('status', { name: /Needs attention/ });
  within(status).getByRole('link', { name: `${open.toLocaleString()} open alarms` });
  expect(screen.queryByText(/fine/)).toBeNull();
});
