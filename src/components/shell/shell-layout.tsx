import { AppShell, Burger, Group, Text } from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { Outlet } from '@tanstack/react-router';
import { NavMenu } from './nav-menu.tsx';
import { PageTransition } from './page-transition.tsx';
import { useEdgeSwipe } from './use-edge-swipe.ts';
import { useMotion } from './use-motion.ts';

/**
 * The split pane every signed-in screen lives in: the side menu beside the content on wide
 * screens, a drawer behind a burger (or an edge swipe) on phones.
 */
export function ShellLayout() {
  const [opened, { toggle, open, close }] = useDisclosure(false);
  const { style, durationMs } = useMotion();
  useEdgeSwipe(open, !opened);
  // Escape closes the phone drawer, as it closes any other overlay.
  useHotkeys([['Escape', close]], []);
  return (
    <AppShell
      header={{ height: { base: 56, sm: 0 } }}
      navbar={{ width: { sm: 260 }, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
      transitionDuration={durationMs}
    >
      <a className="fm-skip-link" href="#main-content">
        Skip to content
      </a>
      <AppShell.Header hiddenFrom="sm" px="md">
        <Group h="100%" gap="sm">
          <Burger
            opened={opened}
            onClick={toggle}
            size="sm"
            aria-label={opened ? 'Close menu' : 'Open menu'}
          />
          <Text fw={700}>Fleet Manager</Text>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar aria-label="Side menu">
        <NavMenu onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1}>
        <PageTransition style={style} durationMs={durationMs}>
          <Outlet />
        </PageTransition>
      </AppShell.Main>
    </AppShell>
  );
}
