import './dom-setup.ts';
import { notifications } from '@mantine/notifications';
import { createMemoryHistory, createRootRoute, createRouter } from '@tanstack/react-router';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { AppRoot } from '../../src/app/app-root.tsx';
import type { AppRuntime } from '../../src/app/app-runtime.ts';
import { holdDeferredUntilInput } from '../../src/when-idle.ts';

afterEach(() => vi.unstubAllGlobals());

it('loads the toast container only once the person acts on a held page, and shows what was toasted before', async () => {
  // Idle moments come at once: only the hold keeps the container waiting.
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => {
    callback();
    return 0;
  });
  // The container's module is loaded already: only the hold can keep it from showing.
  await import('../../src/components/toasts.tsx');
  const screenRoot = document.body.appendChild(document.createElement('div'));
  holdDeferredUntilInput(screenRoot);
  const root = createRootRoute({ component: () => <p>The screen</p> });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) });
  // The views of this router read nothing from the runtime.
  render(<AppRoot runtime={{} as AppRuntime} router={router} />, { container: screenRoot });
  await screen.findByText('The screen');

  notifications.show({ message: 'Shown before the container' });
  // Were it not held, the container would mount and show it well within this time.
  await expect(screen.findByText('Shown before the container', {}, { timeout: 600 })).rejects.toThrow();

  fireEvent.keyDown(screenRoot, { key: 'a' });
  await screen.findByText('Shown before the container');
});
