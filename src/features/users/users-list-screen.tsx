import { Button, Group, Select, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUserPlus } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import type { UserRole } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { PagedList } from '../../components/lists/paged-list.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { CreateUserForm, type NewUserKind } from './create-user-form.tsx';
import { USER_COLUMNS, USER_SORT_OPTIONS } from './user-columns.tsx';
import { fetchUsersByRole, fetchUsersPage } from './users-api.ts';
import type { UsersSearch } from './users-search.ts';

const route = getRouteApi('/_shell/users-list');

const ROLE_FILTER = [
  { value: '', label: 'Everyone' },
  { value: 'installer', label: 'Installers' },
  { value: 'owner', label: 'Owner accounts' },
  { value: 'admin', label: 'Admins' },
];

/** Users: everyone the person sees, searchable, or listed by role; create installers and owners. */
export function UsersListScreen() {
  const { configApi } = useRuntime();
  const { user, page, may } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [creating, setCreating] = useState<NewUserKind>('owner');
  const [opened, { open, close }] = useDisclosure(false);
  const go = (next: UsersSearch) => void navigate({ search: next });
  const startCreate = (kind: NewUserKind) => {
    setCreating(kind);
    open();
  };
  return (
    <Stack gap="md">
      <ScreenHeader
        title="Users"
        actions={
          <>
            {may.createInstallers ? (
              <Button
                leftSection={<IconUserPlus size={16} aria-hidden />}
                onClick={() => startCreate('installer')}
              >
                Create installer
              </Button>
            ) : null}
            {may.manageUsers ? (
              <Button
                variant={may.createInstallers ? 'light' : 'filled'}
                leftSection={<IconUserPlus size={16} aria-hidden />}
                onClick={() => startCreate('owner')}
              >
                Create owner
              </Button>
            ) : null}
          </>
        }
      />
      <Group align="flex-end" gap="sm">
        {may.manageUsers ? (
          <Select
            label="Show"
            data={ROLE_FILTER}
            value={search.role ?? ''}
            allowDeselect={false}
            w={180}
            onChange={(value) =>
              go({
                page: 0,
                ...(search.sort ? { sort: search.sort } : {}),
                ...(value ? { role: value as UserRole } : {}),
              })
            }
          />
        ) : null}
      </Group>
      <PagedList
        label="Users"
        columns={USER_COLUMNS}
        rowKey={(u) => u.id}
        page={page}
        search={search}
        // A new search looks through everyone: it leaves the role filter.
        onSearch={(next) => go(next.q === search.q ? next : { ...next, role: undefined })}
        searchLabel="Search users"
        searchHint={search.role ? 'Searching lists everyone again' : 'E-mail or name'}
        sortOptions={USER_SORT_OPTIONS}
        empty={{ title: search.q ? `No user matches “${search.q}”` : 'No users here' }}
        exportFile="users.csv"
        fetchPage={(n, size) =>
          search.role
            ? fetchUsersByRole(
                configApi,
                search.role,
                { page: n, ...(search.sort ? { sort: search.sort } : {}) },
                size,
              )
            : fetchUsersPage(configApi, user.id, { ...search, page: n }, size)
        }
      />
      {opened ? <CreateUserForm kind={creating} onClose={close} /> : null}
    </Stack>
  );
}
