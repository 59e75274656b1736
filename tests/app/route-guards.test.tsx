import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USERS } from './app-server.ts';
import { expectLocation, renderApp, resumeKey, startAppServerForFile } from './render-app.tsx';

const server = startAppServerForFile();
const { email, password } = USERS.installer;
let app: ReturnType<typeof renderApp> | undefined;
beforeEach(() => window.localStorage.clear());
afterEach(() => {
  app?.cleanup();
  server().override(undefined);
});

describe('route guards', () => {
  it('sends a signed-out visit of a guarded screen to /login and stores the wanted path', async () => {
    app = renderApp('/site-details/42?tab=devices', server());
    await expectLocation(app, '/login');
    expect(window.localStorage.getItem(resumeKey)).toBe('/site-details/42?tab=devices');
    await screen.findByRole('button', { name: 'Sign in' });
  });

  it('resumes the stored path after sign-in', async () => {
    app = renderApp('/users-list', server());
    await expectLocation(app, '/login');
    await app.signIn(email, password);
    await expectLocation(app, '/users-list?page=0');
    await screen.findByRole('heading', { name: 'Users' });
  });

  it('ignores a stored path that leaves the site and opens /landing instead', async () => {
    app = renderApp('/login', server());
    window.localStorage.setItem(resumeKey, '//evil.example/steal');
    await app.signIn(email, password);
    await expectLocation(app, '/landing');
  });

  it.each(['/', '/index.html', '/no/such/screen'])('opens /landing for %s once signed in', async (path) => {
    app = renderApp('/login', server());
    await app.signIn(email, password);
    await expectLocation(app, '/landing');
    await app.router.navigate({ href: path });
    await expectLocation(app, '/landing');
    await screen.findByRole('heading', { name: 'Home' });
  });

  it('sends the empty path of a signed-out visitor through /landing to /login', async () => {
    app = renderApp('/', server());
    await expectLocation(app, '/login');
    expect(window.localStorage.getItem(resumeKey)).toBe('/landing');
  });

  it.each([
    ['/sunspec-config', 'SunSpec configuration'],
    ['/device-details-old/HX5K-24-000123', 'Device details'],
  ])('opens %s without sign-in', async (path, heading) => {
    app = renderApp(path, server());
    await screen.findByRole('heading', { name: heading });
    expect(app.location()).toBe(path);
  });

  it('resumes the session from stored refresh tokens without asking to sign in', async () => {
    app = renderApp('/login', server());
    await app.signIn(email, password);
    await expectLocation(app, '/landing');
    app.cleanup();
    app = renderApp('/devices-list', server());
    await expectLocation(app, '/devices-list?page=0');
    await screen.findByRole('heading', { name: 'Devices' });
  });

  it('shows Loading… while the guard waits for the stored session to be refreshed', async () => {
    app = renderApp('/login', server());
    await app.signIn(email, password);
    await expectLocation(app, '/landing');
    app.cleanup();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const refused = () =>
      Response.json({ message: 'The refresh token is invalid or expired' }, { status: 401 });
    server().override((_, path) => (path.endsWith('/auth/v2/refresh') ? held.then(refused) : undefined));
    app = renderApp('/devices-list', server());
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('Loading…');
    expect(screen.queryByRole('heading', { name: 'Devices' })).toBeNull();
    release();
    await expectLocation(app, '/login');
    expect(screen.queryByText('Loading…')).toBeNull();
  });
});
