/**
 * The start of the message of a failed chunk load once the app has marked it (see
 * `watchChunkLoadErrors` in src/app/watch-chunk-load-errors.ts).
 */
export const CHUNK_LOAD_PREFIX = 'A part of Fleet Manager could not be loaded: ';

/** What browsers and Vite say when a chunk or its stylesheet cannot be fetched. */
const BROWSER_CHUNK_ERRORS =
  /^(Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS)/;

/** Whether `error` is a part of the app (a screen's code or stylesheet) failing to download. */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.message.startsWith(CHUNK_LOAD_PREFIX) || BROWSER_CHUNK_ERRORS.test(error.message))
  );
}
