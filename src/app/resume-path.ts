import { STORAGE_KEYS } from '../../machines/storage-keys.ts';

/** Where a user lands when there is nothing (valid) to resume. */
export const HOME_PATH = '/landing';

/**
 * The path to open after sign-in: the stored one when it is a path on this site
 * (starts with `/`, not `//` or `/\`, and is not the sign-in screen itself), otherwise `/landing`.
 *
 * @example
 * safeResumePath('/sites-list?page=2') // '/sites-list?page=2'
 * safeResumePath('//evil.example/')    // '/landing'
 */
export function safeResumePath(stored: string | null | undefined): string {
  if (!stored?.startsWith('/')) return HOME_PATH;
  if (stored.startsWith('//') || stored.startsWith('/\\')) return HOME_PATH;
  if (stored === '/login' || stored.startsWith('/login?') || stored.startsWith('/login#')) return HOME_PATH;
  return stored;
}

/**
 * Keeps `href` as the page to return to after sign-in, unless it is not one (the sign-in screen
 * itself, or a path that leaves the site): a person already at `/login` keeps what was stored.
 */
export function rememberResumePath(storage: Storage, href: string): void {
  if (safeResumePath(href) === href) storage.setItem(STORAGE_KEYS.resumePath, href);
}

/** The stored path has been used (or is stale): the next sign-in starts from nothing. */
export function forgetResumePath(storage: Storage): void {
  storage.removeItem(STORAGE_KEYS.resumePath);
}

/**
 * `storage` with the resume path kept per tab as well: every tab of the app shares `localStorage`,
 * so when a sign-out sends several tabs to `/login` at once each would otherwise return to the page
 * the last of them stored. This tab's own path wins while it has one; the stored key (what a new tab
 * or a reload finds) is still written and removed as before.
 *
 * @example
 * const storage = withTabResumePath(window.localStorage);
 */
export function withTabResumePath(storage: Storage): Storage {
  let own: string | null = null;
  const key = STORAGE_KEYS.resumePath;
  return {
    get length() {
      return storage.length;
    },
    key: (index) => storage.key(index),
    clear: () => {
      own = null;
      storage.clear();
    },
    getItem: (name) => (name === key && own !== null ? own : storage.getItem(name)),
    setItem: (name, value) => {
      if (name === key) own = String(value);
      storage.setItem(name, value);
    },
    removeItem: (name) => {
      if (name === key) own = null;
      storage.removeItem(name);
    },
  };
}
