import { NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core';
import {
  IconAlarm,
  IconBug,
  IconBuildingFactory2,
  IconBuildingStore,
  IconCpu,
  IconDevices,
  IconHome,
  IconLogout,
  IconMapPin,
  IconUserCircle,
  IconUsers,
} from '@tabler/icons-react';
import { Link, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import {
  type Actor,
  mayJoinCompany,
  mayOpenFirmware,
  mayOpenRemoteDebugger,
  mayOpenSiteManager,
} from '../../../contracts/access-policy.ts';
import { currentEmail, currentUserName, isAuthenticated } from '../../../machines/auth/auth-selectors.ts';
import { currentUserOf, sameUser } from '../../app/current-user.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { MotionSetting } from './motion-setting.tsx';

type MenuPath =
  | '/landing'
  | '/alarms'
  | '/sites-list'
  | '/devices-list'
  | '/users-list'
  | '/company'
  | '/site-manager'
  | '/firmware'
  | '/remote-debugger';

interface MenuItem {
  label: string;
  to: MenuPath;
  icon: ReactNode;
  /** The access policy's question the screen's loader asks too; unset: every signed-in user. */
  may?: (actor: Actor) => boolean;
}

const MENU_ITEMS: MenuItem[] = [
  { label: 'Home', to: '/landing', icon: <IconHome size={18} aria-hidden /> },
  { label: 'Sites', to: '/sites-list', icon: <IconMapPin size={18} aria-hidden /> },
  { label: 'Devices', to: '/devices-list', icon: <IconDevices size={18} aria-hidden /> },
  { label: 'Users', to: '/users-list', icon: <IconUsers size={18} aria-hidden /> },
  { label: 'Alarms', to: '/alarms', icon: <IconAlarm size={18} aria-hidden /> },
  {
    label: 'Company',
    to: '/company',
    icon: <IconBuildingStore size={18} aria-hidden />,
    may: mayJoinCompany,
  },
  {
    label: 'Site Manager',
    to: '/site-manager',
    icon: <IconBuildingFactory2 size={18} aria-hidden />,
    may: mayOpenSiteManager,
  },
  {
    label: 'Firmware',
    to: '/firmware',
    icon: <IconCpu size={18} aria-hidden />,
    may: mayOpenFirmware,
  },
  {
    label: 'Remote Debugger',
    to: '/remote-debugger',
    icon: <IconBug size={18} aria-hidden />,
    may: mayOpenRemoteDebugger,
  },
];

/** The menu items a user may open: those whose screen's loader lets them in. */
export function menuItemsFor(me: Actor | null): MenuItem[] {
  return MENU_ITEMS.filter((item) => !item.may || (me !== null && item.may(me)));
}

/** The side menu: title, signed-in user, the catalogue's version, screens, and the Account section. */
export function NavMenu({
  onNavigate,
  catalogueStatus,
  accountItems,
}: {
  onNavigate: () => void;
  catalogueStatus: ReactNode;
  /** "Change password", from the account feature. */
  accountItems?: ReactNode;
}) {
  const { auth, config } = useRuntime();
  const name = useSelector(auth, currentUserName);
  const email = useSelector(auth, currentEmail);
  const me = useSelector(auth, (s) => currentUserOf(s, config.companyDomain), sameUser);
  const myId = me?.id ?? null;
  // The frame the build prerenders for a guarded path is shown while the session is restored,
  // signed out: it offers no Logout until someone is signed in.
  const signedIn = useSelector(auth, isAuthenticated);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const items = menuItemsFor(me);
  return (
    <>
      <Stack gap={4} p="md" pb="xs">
        <Title order={2} size="h4" id="menu-title">
          Fleet Manager
        </Title>
        <Text size="sm" fw={600} data-testid="user-name">
          {name || email}
        </Text>
      </Stack>
      <ScrollArea component="nav" aria-labelledby="menu-title" style={{ flex: 1 }} px="xs">
        {items.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            leftSection={item.icon}
            active={pathname === item.to}
            aria-current={pathname === item.to ? 'page' : undefined}
            onClick={onNavigate}
          />
        ))}
      </ScrollArea>
      {/* After the screens: the first stop of the keyboard past the skip link is Home, not the refresh. */}
      <Stack gap={4} px="md" py="xs">
        {catalogueStatus}
      </Stack>
      <Stack gap={4} p="xs" component="section" aria-labelledby="account-title">
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" id="account-title">
          Account
        </Text>
        {/* One's own user page: name, phone, e-mail, alarm mail, one's sites. */}
        {myId === null ? null : (
          <NavLink
            component={Link}
            to="/user-details/$userid"
            params={{ userid: String(myId) } as never}
            label="Profile"
            leftSection={<IconUserCircle size={18} aria-hidden />}
            active={pathname === `/user-details/${myId}`}
            aria-current={pathname === `/user-details/${myId}` ? 'page' : undefined}
            onClick={onNavigate}
          />
        )}
        {accountItems}
        <MotionSetting />
        {signedIn ? (
          <NavLink
            component="button"
            label="Logout"
            leftSection={<IconLogout size={18} aria-hidden />}
            onClick={() => auth.send({ type: 'auth.logout' })}
          />
        ) : null}
      </Stack>
    </>
  );
}
