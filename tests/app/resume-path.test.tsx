import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { isAuthenticated } from '../../machines/auth/auth-selectors.ts';
import { expectLocation, renderApp, resumeKey, startAppServerForFile } from './render-app.tsx';

const server = startAppServerForFile();
let app: ReturnType<typeof renderApp> | undefined;
// Screens are code-split: on a busy machine the first render of one takes a few seconds.
const SCREEN_LOAD = { timeout: 15_000 };
beforeEach(() => window.localStorage.clear());
afterEach(() => app?.cleanup());

describe('the path to resume after sign-in', () => {
  it('is not written when a guarded link is only preloaded', async () => {
    app = renderApp('/login', server());
    await screen.findByRole('button', { name: 'Sign in' }, SCREEN_LOAD);
    await app.router.preloadRoute({ to: '/sites-list', search: { page: 0 } }).catch(() => undefined);
    expect(window.localStorage.getItem(resumeKey)).toBeNull();
    expect(app.location()).toBe('/login');
  });

  it('is removed once the person is back on it', async () => {
    app = renderApp('/users-list', server());
    await expectLocation(app, '/login');
    expect(window.localStorage.getItem(resumeKey)).toBe('/users-list?page=0');
    await app.signIn('installer@solarpros.example', 'Installer#2026');
    await expectLocation(app, '/users-list?page=0');
    await screen.findByRole('heading', { name: 'Users' }, SCREEN_LOAD);
    expect(window.localStorage.getItem(resumeKey)).toBeNull();
  });

  it('brings a person whose refresh failed mid-session back to the page they were on', async () => {
    app = renderApp('/login', server());
    await app.signIn('installer@solarpros.example', 'Installer#2026');
    await expectLocation(app, '/landing');
    await app.router.navigate({ href: '/sites-list?page=2' });
    await expectLocation(app, '/sites-list?page=2');
    // The services forget the session (revoked elsewhere); the next refresh fails.
    await server()
      .server.ctx.db.updateTable('refresh_tokens')
      .set({ revoked_at: new Date() })
      .where('revoked_at', 'is', null)
      .execute();
    app.runtime.auth.send({ type: 'auth.refresh', service: 'config' });
    await expectLocation(app, '/login');
    expect(window.localStorage.getItem(resumeKey)).toBe('/sites-list?page=2');
    await app.signIn('installer@solarpros.example', 'Installer#2026');
    await waitFor(app.runtime.auth, isAuthenticated);
    await expectLocation(app, '/sites-list?page=2');
    await screen.findByRole('heading', { name: 'Sites' }, SCREEN_LOAD);
  });
});
