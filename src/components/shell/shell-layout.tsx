import '../../styles/mantine-all.css';
import { AppShell, Burger, em, Group, px, Text, useMantineTheme } from '@mantine/core';
import { useDisclosure, useHotkeys, useMediaQuery } from '@mantine/hooks';
import { Outlet } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef } from 'react';
import { NavMenu } from './nav-menu.tsx';
import { PageTransition } from './page-transition.tsx';
import { useEdgeSwipe } from './use-edge-swipe.ts';
import { useKeepFocusWithin } from './use-keep-focus-within.ts';
import { useMotion } from './use-motion.ts';

/** Below this breakpoint the menu is a drawer behind the burger. */
const DRAWER_BELOW = 'sm';

/**
 * The split pane every signed-in screen lives in: the side menu beside the content on wide
 * screens, a drawer behind a burger (or an edge swipe) on phones. A closed drawer is `inert`, so
 * Tab and screen readers skip what cannot be seen; opening it moves focus to its first link, and
 * closing it with the burger or Escape gives focus back to the burger.
 *
 * `catalogueStatus` is the catalogue's version and refresh button for the menu, and
 * `accountItems` the Account section's own items (given a function that closes the phone
 * drawer), passed in by the route so that this shared frame imports no feature; the frame the
 * build prerenders for a session not yet restored has none.
 */
export function ShellLayout({
  catalogueStatus,
  accountItems,
}: {
  catalogueStatus: ReactNode;
  accountItems?: (closeMenu: () => void) => ReactNode;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const { style, durationMs } = useMotion();
  const theme = useMantineTheme();
  const phone = useMediaQuery(`(max-width: ${em(Number(px(theme.breakpoints[DRAWER_BELOW])) - 0.1)})`);
  const burger = useRef<HTMLButtonElement>(null);
  const navbar = useRef<HTMLDivElement>(null);
  useEdgeSwipe(open, !opened);

  // Closing from the burger or Escape hands focus back to the burger; choosing an item does not
  // (the new screen's heading takes it).
  const closeToBurger = () => {
    close();
    burger.current?.focus();
  };
  useHotkeys([['Escape', () => opened && closeToBurger()]], []);
  useEffect(() => {
    if (opened && phone) navbar.current?.querySelector<HTMLElement>('a[href]')?.focus();
  }, [opened, phone]);
  useKeepFocusWithin(navbar, opened && phone === true);

  return (
    <AppShell
      header={{ height: { base: 56, [DRAWER_BELOW]: 0 } }}
      navbar={{ width: { [DRAWER_BELOW]: 260 }, breakpoint: DRAWER_BELOW, collapsed: { mobile: !opened } }}
      padding="lg"
      transitionDuration={durationMs}
    >
      <a className="fm-skip-link" href="#main-content">
        Skip to content
      </a>
      <AppShell.Header hiddenFrom={DRAWER_BELOW} px="md">
        <Group h="100%" gap="sm">
          <Burger
            ref={burger}
            opened={opened}
            onClick={opened ? closeToBurger : open}
            size="sm"
            aria-label={opened ? 'Close menu' : 'Open menu'}
            aria-expanded={opened}
            aria-controls="side-menu"
          />
          <Text fw={700}>Fleet Manager</Text>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar ref={navbar} id="side-menu" aria-label="Side menu" inert={phone === true && !opened}>
        <NavMenu onNavigate={close} catalogueStatus={catalogueStatus} accountItems={accountItems?.(close)} />
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1}>
        <PageTransition style={style} durationMs={durationMs}>
          <Outlet />
        </PageTransition>
      </AppShell.Main>
    </AppShell>
  );
}
