import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refreshTokenKey } from '../../machines/storage-keys.ts';
import { USERS } from './app-server.ts';
import { expectLocation, renderApp, startAppServerForFile } from './render-app.tsx';

const server = startAppServerForFile();
let app: ReturnType<typeof renderApp> | undefined;
beforeEach(() => window.localStorage.clear());
afterEach(() => {
  app?.cleanup();
  server().override(undefined);
});

const authCalls = () => server().calls.filter((call) => call.path.includes('/auth/'));
const emailField = () => screen.findByLabelText<HTMLInputElement>(/^E-mail/);

describe('sign-in screen', () => {
  it('starts with focus in the E-mail field', async () => {
    app = renderApp('/login', server());
    const email = await emailField();
    await waitFor(() => expect(document.activeElement).toBe(email));
  });

  it('puts focus in the E-mail field when a guarded screen sends a visitor to sign in', async () => {
    app = renderApp('/sites-list', server());
    await expectLocation(app, '/login');
    const email = await emailField();
    await waitFor(() => expect(document.activeElement).toBe(email));
  });

  it('prefills the e-mail of the last sign-in when the session has ended', async () => {
    app = renderApp('/login', server());
    await app.signIn(USERS.installer.email, USERS.installer.password);
    await expectLocation(app, '/landing');
    app.cleanup();
    // The stored session is no longer accepted (revoked, or expired while away).
    window.localStorage.setItem(refreshTokenKey('config'), 'revoked');
    window.localStorage.setItem(refreshTokenKey('monitoring'), 'revoked');
    app = renderApp('/landing', server());
    await expectLocation(app, '/login');
    const email = await emailField();
    expect(email.value).toBe(USERS.installer.email);
    await waitFor(() => expect(document.activeElement).toBe(email));
  });

  it('prefills nothing after a logout, which forgets the e-mail', async () => {
    app = renderApp('/login', server());
    await app.signIn(USERS.installer.email, USERS.installer.password);
    await expectLocation(app, '/landing');
    await app.user.click(await screen.findByRole('button', { name: 'Logout' }));
    await expectLocation(app, '/login');
    expect((await emailField()).value).toBe('');
  });

  it('names the missing fields instead of calling the service', async () => {
    app = renderApp('/login', server());
    const before = authCalls().length;
    await app.user.click(await screen.findByRole('button', { name: 'Sign in' }));
    await screen.findByText('Enter your e-mail address');
    screen.getByText('Enter your password');
    expect(authCalls()).toHaveLength(before);
  });

  it('rejects an e-mail address without a domain', async () => {
    app = renderApp('/login', server());
    await app.signIn('installer', 'whatever');
    await screen.findByText('Enter a valid e-mail address');
  });

  it("shows the server's message when the password is wrong, and stays on /login", async () => {
    app = renderApp('/login', server());
    await app.signIn(USERS.installer.email, 'not-my-password');
    const alert = await screen.findByRole('alert');
    within(alert).getByText('E-mail or password is wrong');
    expect(app.location()).toBe('/login');
  });
});

describe('a service that is down at sign-in', () => {
  it('names the configuration service when it cannot be reached, and says what to do', async () => {
    server().override((_, path) => (path === '/config/auth/v2/login' ? 'refused' : undefined));
    app = renderApp('/login', server());
    await app.signIn(USERS.installer.email, USERS.installer.password);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The configuration service cannot be reached.');
    expect(alert.textContent).toContain('Check that this device is online and try again');
    expect(app.location()).toBe('/login');
  });

  it('names the monitoring service when it answers 503, after the configuration sign-in worked', async () => {
    server().override((_, path) =>
      path === '/monitoring/auth/v2/configurator-login'
        ? Response.json({ message: 'Service Unavailable', code: 'unavailable' }, { status: 503 })
        : undefined,
    );
    app = renderApp('/login', server());
    await app.signIn(USERS.installer.email, USERS.installer.password);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The monitoring service is not available right now (HTTP 503).');
    expect(alert.textContent).toContain('Try again in a few minutes');
    expect(server().calls.some((call) => call.path === '/config/auth/v2/login' && call.status === 200)).toBe(
      true,
    );
    expect(app.location()).toBe('/login');
  });
});

describe('forgot password', () => {
  const owner = USERS.owner;

  // The server sends an account at most three codes in its window: tests that need no code ask for
  // an address without an account, which gets the same answer.
  async function askForCode(address: string = owner.email) {
    app = renderApp('/login', server());
    await app.user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    const email = await emailField();
    await app.user.type(email, address);
    await app.user.click(screen.getByRole('button', { name: 'Send access code' }));
    return screen.findByLabelText(/^Access code/);
  }

  it('moves focus to the field each step asks for, and back to E-mail on returning', async () => {
    const code = await askForCode('nobody@homeowner.example');
    await waitFor(() => expect(document.activeElement).toBe(code));
    await app?.user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    const email = await emailField();
    await waitFor(() => expect(document.activeElement).toBe(email));
    await app?.user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    await waitFor(() => expect(document.activeElement?.getAttribute('autocomplete')).toBe('username'));
  });

  it("shows the server's message when the access code is wrong", async () => {
    await askForCode();
    await app?.user.type(screen.getByLabelText(/^Access code/), '00000000');
    await app?.user.type(screen.getByLabelText(/^New password/), 'Brand-new#2026');
    await app?.user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    await screen.findByText('The access code is wrong, used or expired');
  });

  it('asks for a new password of at least 8 characters', async () => {
    await askForCode();
    const before = server().calls.filter((call) => call.path === '/config/users/password').length;
    await app?.user.type(screen.getByLabelText(/^Access code/), await server().mailedCode(owner.email));
    await app?.user.type(screen.getByLabelText(/^New password/), 'short');
    await app?.user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    await screen.findByText('Use at least 8 characters');
    expect(server().calls.filter((call) => call.path === '/config/users/password')).toHaveLength(before);
  });

  it('requests an access code, then sets a new password that signs in', async () => {
    const code = await askForCode();
    expect((screen.getByLabelText(/^E-mail/) as HTMLInputElement).value).toBe(owner.email);
    await app?.user.type(code, await server().mailedCode(owner.email));
    await app?.user.type(screen.getByLabelText(/^New password/), 'Brand-new#2026');
    await app?.user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    // The new password signs in at once: no second form to fill.
    await expectLocation(app as NonNullable<typeof app>, '/landing');
    const change = server()
      .calls.filter((call) => call.path === '/config/users/password')
      .at(-1);
    expect(change?.status).toBe(204);
  });
});
