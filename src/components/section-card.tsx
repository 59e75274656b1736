import { Card, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';

/**
 * A titled part of a screen (a site's facts, the people with access, quick actions): a bordered
 * card that is a region named by its `h2`, so a screen reader lists it among the page's parts.
 *
 * @example <SectionCard title="Account"><Fact label="Role">Installer</Fact></SectionCard>
 */
export function SectionCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** One labelled fact of a record: "ROLE" above "Installer". */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text>{children}</Text>
    </div>
  );
}
