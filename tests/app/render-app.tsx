import './dom-setup.ts';
import { createMemoryHistory } from '@tanstack/react-router';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '../../machines/storage-keys.ts';
import { AppRoot } from '../../src/components/app-root.tsx';
import { createApp } from '../../src/components/create-app.ts';
import { createFakeServices, testConfig } from './fake-services.ts';

/** Starts the whole app (real machines, real router) at `path` against the fake services. */
export function renderApp(path: string, services = createFakeServices()) {
  const storage = window.localStorage;
  const history = createMemoryHistory({ initialEntries: [path] });
  const { runtime, router } = createApp(testConfig, { storage, fetch: services.fetch, history });
  const view = render(<AppRoot runtime={runtime} router={router} />);
  const user = userEvent.setup();
  const location = () => router.state.location.href;
  const signIn = async (email: string, password: string) => {
    await user.type(await screen.findByLabelText(/^E-mail/), email);
    await user.type(screen.getByLabelText(/^Password/), password);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
  };
  const cleanup = () => {
    view.unmount();
    runtime.auth.stop();
    runtime.devicesList.stop();
    runtime.passwordReset.stop();
  };
  return { runtime, router, services, storage, user, location, signIn, cleanup };
}

/** Waits until the router has settled on `href` (path, search and hash). */
export async function expectLocation(app: ReturnType<typeof renderApp>, href: string) {
  await waitFor(() => {
    if (app.location() !== href) throw new Error(`at ${app.location()}, expected ${href}`);
  });
}

export const resumeKey = STORAGE_KEYS.resumePath;
