import { Button, Group, Modal, Select, Stack, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUserPlus } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import type { UserRole } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { collectAllPages, downloadCsv, toCsv } from '../../components/lists/csv.ts';
import { DataList } from '../../components/lists/data-list.tsx';
import { sortRows } from '../../components/lists/list-search.ts';
import { ListToolbar, Pager } from '../../components/lists/list-toolbar.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { CreateUserForm } from './create-user-form.tsx';
import { USER_COLUMNS, USER_SORT_OPTIONS, userText } from './user-columns.tsx';
import { fetchUsersByRole, fetchUsersPage } from './users-api.ts';
import type { UsersSearch } from './users-search.ts';

const route = getRouteApi('/_shell/users-list');

const ROLE_FILTER = [
  { value: '', label: 'Everyone' },
  { value: 'installer', label: 'Installers' },
  { value: 'owner', label: 'Owners' },
  { value: 'admin', label: 'Admins' },
];

/** Users: everyone the person sees, searchable, or listed by role; create installers and owners. */
export function UsersListScreen() {
  const { configApi } = useRuntime();
  const { user, page } = route.useLoaderData();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [creating, setCreating] = useState<'installer' | 'owner'>('owner');
  const [opened, { open, close }] = useDisclosure(false);
  const go = (next: UsersSearch) => void navigate({ search: next });
  const startCreate = (role: 'installer' | 'owner') => {
    setCreating(role);
    open();
  };
  const exportCsv = async () => {
    const all = await collectAllPages((n, size) =>
      search.role
        ? fetchUsersByRole(configApi, search.role, n, size)
        : fetchUsersPage(configApi, user.id, n, search.q, size),
    );
    downloadCsv('users.csv', toCsv(all, USER_COLUMNS));
  };
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Users
        </Title>
        <Group gap="xs">
          {user.role === 'admin' ? (
            <Button
              leftSection={<IconUserPlus size={16} aria-hidden />}
              onClick={() => startCreate('installer')}
            >
              Create installer
            </Button>
          ) : null}
          {user.role === 'owner' ? null : (
            <Button
              variant={user.role === 'admin' ? 'light' : 'filled'}
              leftSection={<IconUserPlus size={16} aria-hidden />}
              onClick={() => startCreate('owner')}
            >
              Create owner
            </Button>
          )}
        </Group>
      </Group>
      <Group align="flex-end" gap="sm">
        {user.role === 'owner' ? null : (
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
        )}
      </Group>
      <ListToolbar
        searchLabel="Search users"
        searchHint={search.role ? 'Searching lists everyone again' : 'E-mail or name'}
        search={search}
        sortOptions={USER_SORT_OPTIONS}
        onChange={(next) => go(next.q === search.q ? next : { ...next, role: undefined })}
        onExport={exportCsv}
      />
      {page.items.length === 0 ? (
        <EmptyState title={search.q ? `No user matches “${search.q}”` : 'No users here'} />
      ) : (
        <DataList
          label="Users"
          columns={USER_COLUMNS}
          rows={sortRows(page.items, search.sort, userText)}
          rowKey={(u) => u.id}
        />
      )}
      <Pager
        page={page.page}
        pageSize={page.pageSize}
        total={page.total}
        onPage={(n) => go({ ...search, page: n })}
      />
      <Modal
        opened={opened}
        onClose={close}
        title={creating === 'installer' ? 'Create installer' : 'Create owner'}
      >
        <CreateUserForm role={creating} onClose={close} />
      </Modal>
    </Stack>
  );
}
