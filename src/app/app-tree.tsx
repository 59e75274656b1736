import type { AnyRouter } from '@tanstack/react-router';
import { type ReactNode, StrictMode, useEffect } from 'react';
import { AppRoot } from './app-root.tsx';
import type { AppRuntime } from './app-runtime.ts';

/** Calls `onMounted` once React has committed the tree below it (hydrated it, or rendered it). */
function Mounted({ onMounted, children }: { onMounted: (() => void) | undefined; children: ReactNode }) {
  useEffect(() => {
    onMounted?.();
  }, [onMounted]);
  return children;
}

/**
 * The whole app as React renders it. The browser (src/main.tsx) and the build's prerendering
 * (src/prerender/render-pages.tsx) both take it from here, so the markup the build writes is the
 * markup the browser hydrates: the same components in the same providers.
 *
 * @param onMounted called once the tree is committed: a hydrated page's forms are the app's then
 * @example hydrateRoot(container, appTree(runtime, router, takeOverEarlyInput));
 */
export function appTree(runtime: AppRuntime, router: AnyRouter, onMounted?: () => void) {
  return (
    <StrictMode>
      <Mounted onMounted={onMounted}>
        <AppRoot runtime={runtime} router={router} />
      </Mounted>
    </StrictMode>
  );
}
