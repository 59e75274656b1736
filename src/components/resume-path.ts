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
