/**
 * The pages the build renders ahead of time, and the paths each one answers. The build writes
 * them (vite.config.ts, `src/prerender/`), the server sends them (`server/static-app.ts`) and the
 * service worker answers them offline (`src/service-worker.ts`): one list, so the three agree.
 *
 * The signed-out screens a person opens in the field are rendered as they first look; every other
 * path gets `SHELL_PAGE`, the signed-in frame (menu and "Loading…") shown while the session is
 * restored.
 */
export interface PrerenderedPage {
  /** File name in the build, beside `index.html`. */
  file: string;
  /** The path the build renders it at. */
  renderPath: string;
  /** Whether a request path is answered with this page. */
  answers: (pathname: string) => boolean;
}

/** A path with one trailing slash removed, as the router reads it. */
const trimmed = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname);

export const PRERENDERED_PAGES: readonly PrerenderedPage[] = [
  { file: 'login.html', renderPath: '/login', answers: (p) => trimmed(p) === '/login' },
  {
    file: 'sunspec-config.html',
    renderPath: '/sunspec-config',
    answers: (p) => trimmed(p) === '/sunspec-config',
  },
  {
    file: 'device-details-old.html',
    // Any device: the screen names it only once the app runs (see device-details-old-screen.tsx).
    renderPath: '/device-details-old/device',
    answers: (p) => /^\/device-details-old\/[^/]+$/.test(trimmed(p)),
  },
];

/** The page for every other path: the signed-in shell, waiting for the session. */
export const SHELL_PAGE = 'index.html';

/**
 * The page file that answers a navigation to `pathname`.
 * @example pageFileFor('/login') // 'login.html'
 * @example pageFileFor('/sites-list') // 'index.html'
 */
export function pageFileFor(pathname: string): string {
  return PRERENDERED_PAGES.find((page) => page.answers(pathname))?.file ?? SHELL_PAGE;
}
