import { Center, Loader, Stack, Text } from '@mantine/core';

/**
 * What a screen shows while its route waits, e.g. the guard waiting for stored sessions to be
 * refreshed: "Loading…", announced politely, never a blank page.
 */
export function RoutePending() {
  return (
    <Center mih="60dvh" p="md">
      <Stack align="center" gap="xs" role="status" aria-live="polite">
        <Loader size="sm" aria-hidden />
        <Text>Loading…</Text>
      </Stack>
    </Center>
  );
}
