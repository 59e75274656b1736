import { CHUNK_LOAD_PREFIX } from '../components/is-chunk-load-error.ts';

/**
 * Marks every failed download of a chunk or its stylesheet, which Vite announces on `window`
 * (`vite:preloadError`) just before the error reaches the route that imported it. The router
 * reloads the whole page once by itself on such an error: with no connection that is the
 * browser's own error page instead of the app. Marked, the error reaches the route's error view,
 * the app's own page, which says what happened and offers "Reload" (`ChunkLoadFailure`).
 *
 * @returns whether a download has failed since: a prerendered page is then not hydrated, since
 * what the app renders (that page) is not what the build rendered
 */
export function watchChunkLoadErrors(target: Window): { failed: () => boolean } {
  let failed = false;
  target.addEventListener('vite:preloadError', (event) => {
    failed = true;
    const error = (event as Event & { payload?: unknown }).payload;
    if (error instanceof Error && !error.message.startsWith(CHUNK_LOAD_PREFIX))
      error.message = `${CHUNK_LOAD_PREFIX}${error.message}`;
  });
  return { failed: () => failed };
}
