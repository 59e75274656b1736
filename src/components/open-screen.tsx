import { Anchor, Container, Group, Paper, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

/**
 * Frame of the screens that need no sign-in (the older device details, SunSpec configuration) and
 * of the not-found page. Its components' styles are in the first screen's sheet, so the not-found
 * page, part of every screen's code, does not bring Mantine's whole sheet to the sign-in screen;
 * the screens in the frame import that sheet themselves.
 */
export function OpenScreen({ children }: { children: ReactNode }) {
  return (
    <>
      <Paper component="header" shadow="xs" radius={0} px="md" py="sm">
        <Group justify="space-between">
          <Text fw={700}>Fleet Manager</Text>
          <Anchor component={Link} to="/landing" size="sm" c="teal.9">
            Home
          </Anchor>
        </Group>
      </Paper>
      <Container component="main" size="md" py="lg">
        {children}
      </Container>
    </>
  );
}
