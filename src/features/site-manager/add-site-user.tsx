import { Alert, Button, Checkbox, Group, Select, Stack } from '@mantine/core';
import { useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import { errorMessage } from '../../../contracts/error-message.ts';
import type { SiteRole } from '../../../contracts/sites.ts';
import type { User } from '../../../contracts/users.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { changeRoles } from '../../components/site-access/site-access-api.ts';
import { SITE_ROLES } from '../../components/site-access/site-access-table.tsx';
import { findUsers } from './site-manager-api.ts';

/** Give a user roles on a site (`change-roles` creates their access, switched on). */
export function AddSiteUser({ siteId, adminId }: { siteId: number; adminId: number }) {
  const { configApi } = useRuntime();
  const router = useRouter();
  const [matches, setMatches] = useState<User[]>([]);
  const [userId, setUserId] = useState<string | null>(null);
  const [roles, setRoles] = useState<string[]>(['viewer']);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const search = async (text: string) => {
    if (text.trim().length < 2) return;
    try {
      setMatches(await findUsers(configApi, adminId, text.trim()));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  const add = async () => {
    if (!userId) return;
    setBusy(true);
    setError(null);
    try {
      await changeRoles(configApi, { siteId, userId: Number(userId), roles: roles as SiteRole[] });
      setUserId(null);
      await router.invalidate();
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <Select
          label="Give a user access"
          placeholder="Type an e-mail or name"
          searchable
          filter={({ options }) => options}
          onSearchChange={(text) => void search(text)}
          data={matches.map((u) => ({ value: String(u.id), label: `${u.name} (${u.main_email})` }))}
          value={userId}
          onChange={setUserId}
          w={320}
          nothingFoundMessage="No user found"
        />
        <Checkbox.Group value={roles} onChange={setRoles} label="Roles">
          <Group gap="sm" mt={6}>
            {SITE_ROLES.map((role) => (
              <Checkbox key={role.value} value={role.value} label={role.label} />
            ))}
          </Group>
        </Checkbox.Group>
        <Button variant="light" disabled={!userId} loading={busy} onClick={() => void add()}>
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
