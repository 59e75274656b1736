import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { ScreenHeader } from './screen-header.tsx';

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
