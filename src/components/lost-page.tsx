import { Alert, Anchor, Group, Stack } from '@mantine/core';
import { IconQuestionMark } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { OpenScreen } from './open-screen.tsx';
import { ScreenHeader } from './screen-header.tsx';

/**
 * The app's own page for something that does not exist, with ways back: shown for an unknown
 * device on an open screen and, as the router's default, anywhere else, so a mistyped address
 * never ends on the router's bare message.
 */
export function NotFoundPage({
  title = 'This page does not exist',
  children,
  links,
}: {
  title?: string;
  children?: ReactNode;
  links?: ReactNode;
}) {
  return (
    <OpenScreen>
      <Stack gap="md" maw={640}>
        <ScreenHeader title={title} />
        <Alert color="yellow" icon={<IconQuestionMark aria-hidden />}>
          {children ?? 'The address may be mistyped, or what it named is gone.'}
        </Alert>
        <Group gap="lg">
          {links}
          <Anchor component={Link} to="/landing">
            Go to Home
          </Anchor>
        </Group>
      </Stack>
    </OpenScreen>
  );
}
