import { Stack, Text, Title } from '@mantine/core';

/** A screen that is routed and guarded already, with its content still to come. */
export function ScreenPlaceholder({ title, detail }: { title: string; detail?: string }) {
  return (
    <Stack gap="xs">
      <Title order={1} size="h2">
        {title}
      </Title>
      {detail ? <Text c="dimmed">{detail}</Text> : null}
      <Text>This screen is coming soon.</Text>
    </Stack>
  );
}
