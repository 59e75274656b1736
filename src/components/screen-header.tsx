import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ScreenHeaderProps {
  /** The screen's one `h1`: what the route focus gives focus to when the screen opens. */
  title: ReactNode;
  /** A line under the title: the site's address, the user's e-mail, what the screen is for. */
  description?: ReactNode;
  /** Beside the title: a status such as a device's "Online" badge. */
  badge?: ReactNode;
  /** The screen's main actions: to the right of the title, below it when the screen is narrow. */
  actions?: ReactNode;
}

/**
 * How every screen opens: its title, the line that says which thing it shows, and its main
 * actions. One component, so every screen's heading has the same level, size and spacing.
 *
 * @example <ScreenHeader title="Sites" actions={<Button>Create site</Button>} />
 */
export function ScreenHeader({ title, description, badge, actions }: ScreenHeaderProps) {
  const heading = (
    <Title order={1} size="h2">
      {title}
    </Title>
  );
  const text = (
    <div>
      {badge ? (
        <Group gap={0} align="center">
          {heading}
          {badge}
        </Group>
      ) : (
        heading
      )}
      {description ? <Text c="dimmed">{description}</Text> : null}
    </div>
  );
  if (!actions) return text;
  return (
    <Group justify="space-between" align={description ? 'flex-start' : 'center'}>
      {text}
      <Group gap="xs">{actions}</Group>
    </Group>
  );
}
