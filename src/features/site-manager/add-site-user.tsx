import { Alert, Button, Checkbox, Group, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import type { SiteRole } from '../../../contracts/sites.ts';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { useSearch } from '../../app/use-search.ts';
import { changeRoles } from '../../components/site-access/site-access-api.ts';
import { SITE_ROLES } from '../../components/site-access/site-access-table.tsx';
import { findUsers } from './site-manager-api.ts';

const labelOf = (user: User) => `${user.name} (${user.main_email})`;

/**
 * Give a user roles on a site (`change-roles` creates their access, switched on). The person is
 * found as they type: the search waits for a pause and only the latest text's answer is shown.
 */
export function AddSiteUser({ siteId, adminId }: { siteId: number; adminId: number }) {
  const { configApi } = useRuntime();
  const search = useSearch<User>((text, signal) => findUsers(configApi, adminId, text, signal));
  const [picked, setPicked] = useState<User | null>(null);
  const [roles, setRoles] = useState<string[]>(['viewer']);
  const save = useSave({ onSaved: () => setPicked(null) });
  // The one picked stays a choice while the matches change under it.
  const choices =
    picked && !search.results.some((u) => u.id === picked.id) ? [picked, ...search.results] : search.results;
  const add = () => {
    if (!picked) return;
    save.save((signal) =>
      changeRoles(configApi, { siteId, userId: picked.id, roles: roles as SiteRole[] }, signal),
    );
  };
  const error = save.error ?? search.error;
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <Select
          label="Give a user access"
          placeholder="Type an e-mail or name"
          searchable
          filter={({ options }) => options}
          onSearchChange={search.type}
          data={choices.map((u) => ({ value: String(u.id), label: labelOf(u) }))}
          value={picked ? String(picked.id) : null}
          onChange={(value) => setPicked(choices.find((u) => String(u.id) === value) ?? null)}
          w={320}
          nothingFoundMessage={search.searching ? 'Searching…' : 'No user found'}
        />
        <Checkbox.Group value={roles} onChange={setRoles} label="Roles">
          <Group gap="sm" mt={6}>
            {SITE_ROLES.map((role) => (
              <Checkbox key={role.value} value={role.value} label={role.label} />
            ))}
          </Group>
        </Checkbox.Group>
        <Button variant="light" disabled={!picked} loading={save.pending} onClick={add}>
          Add to site
        </Button>
      </Group>
      {error ? (
        <Alert color="red" role="alert" p="xs">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
