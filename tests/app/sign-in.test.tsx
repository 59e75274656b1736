import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESET_CODE, WRONG_CREDENTIALS } from './fake-services.ts';
import { expectLocation, renderApp } from './render-app.tsx';

let app: ReturnType<typeof renderApp> | undefined;
beforeEach(() => window.localStorage.clear());
afterEach(() => app?.cleanup());

describe('sign-in screen', () => {
  it('names the missing fields instead of calling the service', async () => {
    app = renderApp('/login');
    await app.user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your e-mail address')).toBeTruthy();
    expect(screen.getByText('Enter your password')).toBeTruthy();
    expect(app.services.calls.filter((call) => call.includes('/auth/'))).toEqual([]);
  });

  it('rejects an e-mail address without a domain', async () => {
    app = renderApp('/login');
    await app.signIn('installer', 'whatever');
    expect(await screen.findByText('Enter a valid e-mail address')).toBeTruthy();
  });

  it("shows the server's message when the password is wrong, and stays on /login", async () => {
    app = renderApp('/login');
    await app.signIn('installer@solarpros.example', 'not-my-password');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(WRONG_CREDENTIALS)).toBeTruthy();
    expect(app.location()).toBe('/login');
  });
});

describe('forgot password', () => {
  it('requests an access code, then sets a new password with e-mail, code and password', async () => {
    app = renderApp('/login');
    await app.user.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    await app.user.type(screen.getByLabelText(/^E-mail/), 'installer@solarpros.example');
    await app.user.click(screen.getByRole('button', { name: 'Send access code' }));
    const code = await screen.findByLabelText(/^Access code/);
    expect((screen.getByLabelText(/^E-mail/) as HTMLInputElement).value).toBe('installer@solarpros.example');
    await app.user.type(code, RESET_CODE);
    await app.user.type(screen.getByLabelText(/^New password/), 'Brand-new#2026');
    await app.user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText(/Your password has been changed/)).toBeTruthy();
    expect(app.services.calls).toContain('PUT /config/users/password');
  });

  it("shows the server's message when the access code is wrong", async () => {
    app = renderApp('/login');
    await app.user.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    await app.user.type(screen.getByLabelText(/^E-mail/), 'installer@solarpros.example');
    await app.user.click(screen.getByRole('button', { name: 'Send access code' }));
    await app.user.type(await screen.findByLabelText(/^Access code/), '000000');
    await app.user.type(screen.getByLabelText(/^New password/), 'Brand-new#2026');
    await app.user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('The access code is wrong or has expired.')).toBeTruthy();
  });

  it('asks for a new password of at least 8 characters', async () => {
    app = renderApp('/login');
    await app.user.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    await app.user.type(screen.getByLabelText(/^E-mail/), 'installer@solarpros.example');
    await app.user.click(screen.getByRole('button', { name: 'Send access code' }));
    await app.user.type(await screen.findByLabelText(/^Access code/), RESET_CODE);
    await app.user.type(screen.getByLabelText(/^New password/), 'short');
    await app.user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Use at least 8 characters')).toBeTruthy();
    expect(app.services.calls).not.toContain('PUT /config/users/password');
    await expectLocation(app, '/login');
  });
});
