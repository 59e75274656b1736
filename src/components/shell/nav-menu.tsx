import { NavLink, ScrollArea, Stack, Text, Title } from '@mantine/core';
import {
  IconAlarm,
  IconBug,
  IconBuildingFactory2,
  IconDevices,
  IconHome,
  IconLogout,
  IconMapPin,
  IconUser,
  IconUsers,
} from '@tabler/icons-react';
import { Link, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { currentEmail, currentUserName, isCompanyStaff } from '../../../machines/auth/auth-selectors.ts';
import { currentUserOf } from '../../app/current-user.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { MotionSetting } from './motion-setting.tsx';

type MenuPath =
  | '/landing'
  | '/alarms'
  | '/sites-list'
  | '/devices-list'
  | '/users-list'
  | '/site-manager'
  | '/remote-debugger';

interface MenuItem {
  label: string;
  to: MenuPath;
  icon: ReactNode;
}

const MAIN_ITEMS: MenuItem[] = [
  { label: 'Home', to: '/landing', icon: <IconHome size={18} aria-hidden /> },
  { label: 'Sites', to: '/sites-list', icon: <IconMapPin size={18} aria-hidden /> },
  { label: 'Devices', to: '/devices-list', icon: <IconDevices size={18} aria-hidden /> },
  { label: 'Users', to: '/users-list', icon: <IconUsers size={18} aria-hidden /> },
  { label: 'Alarms', to: '/alarms', icon: <IconAlarm size={18} aria-hidden /> },
];

const STAFF_ITEMS: MenuItem[] = [
  { label: 'Site Manager', to: '/site-manager', icon: <IconBuildingFactory2 size={18} aria-hidden /> },
  { label: 'Remote Debugger', to: '/remote-debugger', icon: <IconBug size={18} aria-hidden /> },
];

/** The side menu: title, signed-in user, the catalogue's version, screens, and the Account section. */
export function NavMenu({
  onNavigate,
  catalogueStatus,
}: {
  onNavigate: () => void;
  catalogueStatus: ReactNode;
}) {
  const { auth, config } = useRuntime();
  const name = useSelector(auth, currentUserName);
  const email = useSelector(auth, currentEmail);
  const staff = useSelector(auth, (s) => isCompanyStaff(s, config.companyDomain));
  const myId = useSelector(auth, (s) => currentUserOf(s)?.id ?? null);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const items = staff ? [...MAIN_ITEMS, ...STAFF_ITEMS] : MAIN_ITEMS;
  return (
    <>
      <Stack gap={4} p="md" pb="xs">
        <Title order={2} size="h4" id="menu-title">
          Fleet Manager
        </Title>
        <Text size="sm" fw={600} data-testid="user-name">
          {name || email}
        </Text>
        {catalogueStatus}
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
      <Stack gap={4} p="xs" component="section" aria-labelledby="account-title">
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" id="account-title">
          Account
        </Text>
        <MotionSetting />
        {myId === null ? null : (
          <NavLink
            component={Link}
            to="/user-details/$userid"
            params={{ userid: String(myId) } as never}
            label="My details and alarm mail"
            leftSection={<IconUser size={18} aria-hidden />}
            active={pathname === `/user-details/${myId}`}
            aria-current={pathname === `/user-details/${myId}` ? 'page' : undefined}
            onClick={onNavigate}
          />
        )}
        <NavLink
          component="button"
          label="Logout"
          leftSection={<IconLogout size={18} aria-hidden />}
          onClick={() => auth.send({ type: 'auth.logout' })}
        />
      </Stack>
    </>
  );
}
