import { type ParsedLocation, redirect } from '@tanstack/react-router';
import { waitFor } from 'xstate';
import { isAuthenticated, isInitialised } from '../../machines/auth/auth-selectors.ts';
import { STORAGE_KEYS } from '../../machines/storage-keys.ts';
import type { RouterContext } from '../routes/__root.tsx';
import { forgetResumePath, rememberResumePath, safeResumePath } from './resume-path.ts';

interface GuardArgs {
  context: RouterContext;
  location: ParsedLocation;
  /** True when the router only preloads the route (a hovered link), nobody is going there yet. */
  preload?: boolean;
}

/**
 * `beforeLoad` of every guarded route: waits until auth initialisation is done; an
 * unauthenticated visit stores the wanted path under the resume key and goes to `/login`.
 * A preload writes nothing, and a signed-in person who arrives has used the stored path up.
 *
 * @throws a router redirect to `/login` when the user is not signed in to both services
 */
export async function requireAuth({ context, location, preload = false }: GuardArgs): Promise<void> {
  const snapshot = await waitFor(context.runtime.auth, isInitialised);
  if (isAuthenticated(snapshot)) {
    if (!preload) forgetResumePath(context.storage);
    return;
  }
  if (!preload) rememberResumePath(context.storage, location.href);
  throw redirect({ to: '/login', replace: true });
}

/**
 * `beforeLoad` of the sign-in screen: a user who is already signed in goes straight to
 * the stored path (when it is a path on this site) or to `/landing`.
 *
 * @throws a router redirect away from `/login` when the user is already signed in
 */
export async function skipLoginWhenSignedIn({ context }: GuardArgs): Promise<void> {
  const snapshot = await waitFor(context.runtime.auth, isInitialised);
  if (!isAuthenticated(snapshot)) return;
  throw redirect({ href: safeResumePath(context.storage.getItem(STORAGE_KEYS.resumePath)), replace: true });
}
