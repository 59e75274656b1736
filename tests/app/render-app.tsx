import './dom-setup.ts';
import { createMemoryHistory } from '@tanstack/react-router';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll } from 'vitest';
import { SimulatedClock } from 'xstate';
import { STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { AppRoot } from '../../src/app/app-root.tsx';
import { createApp } from '../../src/app/create-app.ts';
import { type AppServer, startAppServer } from './app-server.ts';

/** Opening the in-memory database, migrating and seeding it takes seconds on a busy machine. */
const SERVER_START_TIMEOUT_MS = 120_000;

/**
 * One real server per test file: started before the first test, closed after the last. The
 * returned function gives the running server to tests.
 */
export function startAppServerForFile(): () => AppServer {
  let server: AppServer | undefined;
  beforeAll(async () => {
    server = await startAppServer();
  }, SERVER_START_TIMEOUT_MS);
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the app server has not started');
    return server;
  };
}

/**
 * Starts the whole app (real machines, real router) at `path` against the real server. The
 * machines' timers run on `clock`, which only the test moves.
 */
export function renderApp(path: string, server: AppServer) {
  const storage = window.localStorage;
  const history = createMemoryHistory({ initialEntries: [path] });
  const clock = new SimulatedClock();
  const { runtime, router } = createApp(server.config, { storage, fetch: server.fetch, history, clock });
  const view = render(<AppRoot runtime={runtime} router={router} />);
  const user = userEvent.setup();
  const location = () => router.state.location.href;
  const signIn = async (email: string, password: string) => {
    const field = await screen.findByLabelText(/^E-mail/, {});
    await user.clear(field);
    await user.type(field, email);
    await user.type(screen.getByLabelText(/^Password/), password);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
  };
  const cleanup = () => {
    view.unmount();
    runtime.auth.stop();
    runtime.catalogue.stop();
    runtime.passwordReset.stop();
  };
  return { runtime, router, server, storage, clock, user, location, signIn, cleanup };
}

/** Waits until the router has settled on `href` (path, search and hash). */
export async function expectLocation(app: ReturnType<typeof renderApp>, href: string) {
  await waitFor(() => {
    if (app.location() !== href) throw new Error(`at ${app.location()}, expected ${href}`);
  });
}

export const resumeKey = STORAGE_KEYS.resumePath;
