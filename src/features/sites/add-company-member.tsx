import { Alert, Button, Checkbox, Group, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import type { CompanyMember } from '../../../contracts/companies.ts';
import type { SiteRole } from '../../../contracts/sites.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { changeRoles } from '../../components/site-access/site-access-api.ts';
import { SITE_ROLES } from '../../components/site-access/site-access-table.tsx';

/**
 * Gives a member of the caller's installer company access to a site, with roles (`change-roles`
 * makes their access, switched on): how an installer of the company comes to work on a site. The
 * members offered are those with no access record on the site yet.
 */
export function AddCompanyMember({
  siteId,
  company,
  members,
}: {
  siteId: number;
  company: string;
  members: CompanyMember[];
}) {
  const { configApi } = useRuntime();
  const [picked, setPicked] = useState<string | null>(null);
  const [roles, setRoles] = useState<string[]>(['installer']);
  const save = useSave({ onSaved: () => setPicked(null) });
  const member = members.find((m) => String(m.userId) === picked);
  const add = () => {
    if (!member) return;
    save.save((signal) =>
      changeRoles(configApi, { siteId, userId: member.userId, roles: roles as SiteRole[] }, signal),
    );
  };
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm">
        <Select
          label={`Give a member of ${company} access`}
          placeholder="Choose a member"
          data={members.map((m) => ({ value: String(m.userId), label: `${m.name} (${m.email})` }))}
          value={picked}
          onChange={setPicked}
          w={{ base: '100%', sm: 320 }}
          searchable
          nothingFoundMessage="No member of that name"
        />
        <Checkbox.Group value={roles} onChange={setRoles} label="Roles">
          <Group gap="sm" mt={6}>
            {SITE_ROLES.map((role) => (
              <Checkbox key={role.value} value={role.value} label={role.label} />
            ))}
          </Group>
        </Checkbox.Group>
        <Button variant="light" disabled={!member || roles.length === 0} loading={save.pending} onClick={add}>
          Add to site
        </Button>
      </Group>
      {save.error ? (
        <Alert color="red" role="alert" p="xs">
          {save.error}
        </Alert>
      ) : null}
    </Stack>
  );
}
