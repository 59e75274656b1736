import { Alert, Badge, Button, Card, Checkbox, Group, Stack, Switch, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import type { SiteDetails, SiteRole } from '../../../contracts/sites.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { changeRoles, setAccess } from './site-access-api.ts';

export const SITE_ROLES: { value: SiteRole; label: string }[] = [
  { value: 'owner', label: 'Owner' },
  { value: 'installer', label: 'Installer' },
  { value: 'viewer', label: 'Viewer' },
  { value: 'configurator', label: 'Configurator' },
];

type AccessRow = SiteDetails['access'][number];

const sameRoles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((role) => b.includes(role));

/** One person's roles and access switch; a failed save keeps the roles as ticked and says why. */
function AccessRowView({ row, canManage, phone }: { row: AccessRow; canManage: boolean; phone: boolean }) {
  const { configApi } = useRuntime();
  const [roles, setRoles] = useState<string[]>(row.roles);
  // Two saves, so the button that was pressed is the one that shows it is busy.
  const rolesSave = useSave();
  const accessSave = useSave();
  const busy = rolesSave.pending || accessSave.pending;
  const error = rolesSave.error ?? accessSave.error;
  const who = row.name || row.main_email;
  const saveRoles = () => {
    accessSave.dismiss();
    rolesSave.save((signal) =>
      changeRoles(configApi, { siteId: row.siteId, userId: row.userId, roles: roles as SiteRole[] }, signal),
    );
  };
  const switchAccess = (access: boolean) => {
    rolesSave.dismiss();
    accessSave.save((signal) =>
      setAccess(configApi, { siteId: row.siteId, userId: row.userId, access }, signal),
    );
  };
  const person = (
    <>
      <Text fw={600} size="sm">
        {row.name}
      </Text>
      <Text size="xs" c="dimmed">
        {row.main_email}
      </Text>
    </>
  );
  const roleCell = (
    <>
      {canManage ? (
        <Stack gap={6}>
          <Checkbox.Group value={roles} onChange={setRoles} aria-label={`Roles of ${who}`}>
            <Group gap="sm">
              {SITE_ROLES.map((role) => (
                <Checkbox key={role.value} value={role.value} label={role.label} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              disabled={sameRoles(roles, row.roles)}
              loading={rolesSave.pending}
              onClick={saveRoles}
              aria-label={`Save roles of ${who}`}
            >
              Save roles
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group gap={4}>
          {row.roles.length === 0 ? <Text size="sm">No role</Text> : null}
          {row.roles.map((role) => (
            <Badge key={role} variant="light">
              {role}
            </Badge>
          ))}
        </Group>
      )}
      {error ? (
        <Alert color="red" role="alert" mt="xs" p="xs">
          {error}
        </Alert>
      ) : null}
    </>
  );
  const accessCell = canManage ? (
    <Switch
      checked={row.access}
      disabled={busy}
      onChange={(event) => switchAccess(event.currentTarget.checked)}
      label={row.access ? 'On' : 'Off'}
      aria-label={`Access for ${who}`}
    />
  ) : (
    <Text size="sm">Access: {row.access ? 'On' : 'Off'}</Text>
  );
  if (phone) {
    return (
      <Card withBorder padding="sm" component="li">
        <Stack gap="xs">
          <div>{person}</div>
          {roleCell}
          {accessCell}
        </Stack>
      </Card>
    );
  }
  return (
    <Table.Tr>
      <Table.Td>{person}</Table.Td>
      <Table.Td>{roleCell}</Table.Td>
      <Table.Td>{accessCell}</Table.Td>
    </Table.Tr>
  );
}

/**
 * Who has access to a site: their site roles and access flag, editable where the person may
 * (the admin, or a site installer); the server checks every change.
 */
export function SiteAccessTable({ site, canManage }: { site: SiteDetails; canManage: boolean }) {
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  if (site.access.length === 0) return <Text c="dimmed">Nobody has been given access to this site.</Text>;
  const rowKey = (row: AccessRow) => `${row.userId}:${row.roles.join()}:${row.access}`;
  if (phone) {
    return (
      <Stack
        component="ul"
        gap="sm"
        aria-label={`People with access to ${site.name}`}
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {site.access.map((row) => (
          <AccessRowView key={rowKey(row)} row={row} canManage={canManage} phone />
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label={`People with access to ${site.name}`} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">User</Table.Th>
            <Table.Th scope="col">Site roles</Table.Th>
            <Table.Th scope="col">Access</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {site.access.map((row) => (
            <AccessRowView key={rowKey(row)} row={row} canManage={canManage} phone={false} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The admin, or a user whose roles on the site include installer, may change roles and access. */
export function canManageAccess(site: SiteDetails, user: { id: number; role: string }): boolean {
  if (user.role === 'admin') return true;
  return site.access.some((row) => row.userId === user.id && row.access && row.roles.includes('installer'));
}

/** The admin, or a user with site role installer or owner, may edit the site itself. */
export function canEditSite(site: SiteDetails, user: { id: number; role: string }): boolean {
  if (user.role === 'admin') return true;
  return site.access.some(
    (row) =>
      row.userId === user.id &&
      row.access &&
      (row.roles.includes('installer') || row.roles.includes('owner')),
  );
}
