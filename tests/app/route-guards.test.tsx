import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectLocation, renderApp, resumeKey } from './render-app.tsx';

let app: ReturnType<typeof renderApp> | undefined;
beforeEach(() => window.localStorage.clear());
afterEach(() => app?.cleanup());

describe('route guards', () => {
  it('sends a signed-out visit of a guarded screen to /login and stores the wanted path', async () => {
    app = renderApp('/site-details/42?tab=devices');
    await expectLocation(app, '/login');
    expect(window.localStorage.getItem(resumeKey)).toBe('/site-details/42?tab=devices');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('resumes the stored path after sign-in', async () => {
    app = renderApp('/users-list');
    await expectLocation(app, '/login');
    await app.signIn('installer@solarpros.example', 'Installer#2026');
    await expectLocation(app, '/users-list');
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeTruthy();
  });

  it('ignores a stored path that leaves the site and opens /landing instead', async () => {
    app = renderApp('/login');
    window.localStorage.setItem(resumeKey, '//evil.example/steal');
    await app.signIn('installer@solarpros.example', 'Installer#2026');
    await expectLocation(app, '/landing');
  });

  it.each(['/', '/index.html', '/no/such/screen'])('opens /landing for %s once signed in', async (path) => {
    app = renderApp('/login');
    await app.signIn('installer@solarpros.example', 'Installer#2026');
    await expectLocation(app, '/landing');
    await app.router.navigate({ href: path });
    await expectLocation(app, '/landing');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
  });

  it('sends the empty path of a signed-out visitor through /landing to /login', async () => {
    app = renderApp('/');
    await expectLocation(app, '/login');
    expect(window.localStorage.getItem(resumeKey)).toBe('/landing');
  });

  it.each([
    ['/sunspec-config', 'SunSpec configuration'],
    ['/device-details-old/HX5K-24-000123', 'Device details'],
  ])('opens %s without sign-in', async (path, heading) => {
    app = renderApp(path);
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
    expect(app.location()).toBe(path);
  });

  it('resumes the session from stored refresh tokens without asking to sign in', async () => {
    app = renderApp('/login');
    await app.signIn('installer@solarpros.example', 'Installer#2026');
    await expectLocation(app, '/landing');
    const services = app.services;
    app.cleanup();
    app = renderApp('/devices-list', services);
    await expectLocation(app, '/devices-list');
    expect(await screen.findByRole('heading', { name: 'Devices' })).toBeTruthy();
  });
});
