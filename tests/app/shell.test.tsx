import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeServices } from './fake-services.ts';
import { expectLocation, renderApp } from './render-app.tsx';

let app: ReturnType<typeof renderApp> | undefined;
beforeEach(() => window.localStorage.clear());
afterEach(() => app?.cleanup());

async function signedIn(email: string, password: string) {
  app = renderApp('/login');
  await app.signIn(email, password);
  await expectLocation(app, '/landing');
  return app;
}

const menu = () => screen.getByRole('navigation', { name: 'Fleet Manager' });

describe('shell', () => {
  it("shows the title, the user's name, the devices-list version and the main menu", async () => {
    await signedIn('installer@solarpros.example', 'Installer#2026');
    expect(await screen.findByText('Ian Installer')).toBeTruthy();
    expect(await screen.findByText('Devices list v7')).toBeTruthy();
    const links = within(menu())
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(links).toEqual(['Home', 'Sites', 'Devices', 'Users']);
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('says the bundled copy is in use when the devices list cannot be downloaded', async () => {
    app = renderApp('/login', createFakeServices({ devicesListDown: true }));
    await app.signIn('installer@solarpros.example', 'Installer#2026');
    await expectLocation(app, '/landing');
    const label = await screen.findByText('Devices list: bundled copy');
    expect(label.getAttribute('title')).toContain('ERROR getting Devices List.');
  });

  it('adds Site Manager and Remote Debugger for company staff', async () => {
    await signedIn('admin@fleet.example', 'FleetAdmin#2026');
    expect(await within(menu()).findByRole('link', { name: 'Site Manager' })).toBeTruthy();
    expect(within(menu()).getByRole('link', { name: 'Remote Debugger' })).toBeTruthy();
  });

  it('logs out to /login, and the staff items go with the session', async () => {
    const current = await signedIn('admin@fleet.example', 'FleetAdmin#2026');
    await current.user.click(await screen.findByRole('button', { name: 'Logout' }));
    await expectLocation(current, '/login');
    expect(screen.queryByRole('link', { name: 'Site Manager' })).toBeNull();
    await current.router.navigate({ href: '/site-manager' });
    await expectLocation(current, '/login');
  });

  it('opens the screen of a menu item', async () => {
    const current = await signedIn('installer@solarpros.example', 'Installer#2026');
    await current.user.click(within(menu()).getByRole('link', { name: 'Sites' }));
    await expectLocation(current, '/sites-list');
    expect(await screen.findByRole('heading', { name: 'Sites' })).toBeTruthy();
  });

  it('disables the refresh button after a refresh and goes to /landing', async () => {
    const current = await signedIn('installer@solarpros.example', 'Installer#2026');
    await current.router.navigate({ href: '/users-list' });
    await expectLocation(current, '/users-list');
    const refresh = await screen.findByRole('button', { name: 'Refresh devices list' });
    await waitFor(() => expect((refresh as HTMLButtonElement).disabled).toBe(false));
    await current.user.click(refresh);
    await expectLocation(current, '/landing');
    await waitFor(() => expect((refresh as HTMLButtonElement).disabled).toBe(true));
  });
});

describe('phone drawer', () => {
  it('opens from the burger and closes with Escape', async () => {
    const current = await signedIn('installer@solarpros.example', 'Installer#2026');
    await current.user.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(screen.getByRole('button', { name: 'Close menu' })).toBeTruthy();
    await current.user.keyboard('{Escape}');
    expect(await screen.findByRole('button', { name: 'Open menu' })).toBeTruthy();
  });
});

describe('page transitions', () => {
  const pageOf = (heading: HTMLElement) => heading.closest<HTMLElement>('[data-motion]');

  it('animates screens Material-style off Apple devices, and iOS-style when chosen', async () => {
    const current = await signedIn('installer@solarpros.example', 'Installer#2026');
    const home = pageOf(await screen.findByRole('heading', { name: 'Home' }));
    expect(home?.dataset.motion).toBe('material');
    expect(home?.style.animationDuration).toBe('250ms');
    await current.user.click(screen.getByRole('radio', { name: 'iOS' }));
    await current.user.click(within(menu()).getByRole('link', { name: 'Sites' }));
    const sites = pageOf(await screen.findByRole('heading', { name: 'Sites' }));
    expect(sites?.dataset.motion).toBe('ios');
    expect(sites?.style.animationDuration).toBe('540ms');
  });

  it('offers a skip link to the content for keyboard users', async () => {
    await signedIn('installer@solarpros.example', 'Installer#2026');
    const skip = await screen.findByRole('link', { name: 'Skip to content' });
    expect(skip.getAttribute('href')).toBe('#main-content');
    expect(screen.getByRole('main').id).toBe('main-content');
  });
});
