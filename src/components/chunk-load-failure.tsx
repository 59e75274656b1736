import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { ScreenHeader } from './screen-header.tsx';

/**
 * The start of the message of a failed chunk load once the app has marked it (see
 * `watchChunkLoadErrors` in src/app/chunk-load-errors.ts).
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

/**
 * A screen whose code could not be downloaded: the connection dropped, or a new version was
 * published while the page was open and the old files are gone. Reloading fetches the page (and
 * so the version) the server has now.
 */
export function ChunkLoadFailure() {
  return (
    <Stack gap="md" maw={640}>
      <ScreenHeader title="This screen could not be loaded" />
      <Alert color="yellow" icon={<IconCloudOff aria-hidden />} role="alert">
        Fleet Manager could not download this part of itself. The connection may have dropped, or a new
        version of Fleet Manager was published while this page was open. Reload the page to try again.
      </Alert>
      <Group>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Group>
    </Stack>
  );
}
