import { Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { currentEmail, currentUserName } from '../../machines/auth-selectors.ts';
import { useRuntime } from './runtime-context.tsx';

/** Home: greets the signed-in user; sites and devices summaries come with their screens. */
export function LandingScreen() {
  const { auth } = useRuntime();
  const name = useSelector(auth, currentUserName);
  const email = useSelector(auth, currentEmail);
  return (
    <Stack gap="xs">
      <Title order={1} size="h2">
        Home
      </Title>
      <Text>Welcome, {name || email}.</Text>
      <Text c="dimmed">Pick Sites, Devices or Users in the menu to get started.</Text>
    </Stack>
  );
}
