import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  Stack,
  Switch,
  Table,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { type Actor, wouldLockThemselvesOut } from '../../../contracts/access-policy.ts';
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

/** Who looks at the table, as the access policy asks about them. */
type Viewer = Actor;

interface RowProps {
  row: AccessRow;
  site: SiteDetails;
  canManage: boolean;
  me: Viewer;
  phone: boolean;
}

/**
 * What saving `roles` for `row` would do that the person should know first: that they would lock
 * themself out (the server refuses it), or that the site changes owner.
 */
function rolesWarning(
  row: AccessRow,
  roles: readonly string[],
  site: SiteDetails,
  me: Viewer,
): string | null {
  if (wouldLockThemselvesOut(me, { userId: row.userId, roles }) === 'roles') {
    return 'You cannot take away your own Installer role: you would lose the right to manage who has access to this site. Another installer of this site or an admin can do it.';
  }
  if (roles.includes('owner') && !row.roles.includes('owner')) {
    const current = site.access.find((other) => other.userId === site.ownerId);
    const who = row.name || row.main_email;
    return current && current.userId !== row.userId
      ? `Saving makes ${who} the owner of this site in place of ${current.name || current.main_email}.`
      : `Saving makes ${who} the owner of this site.`;
  }
  if (!roles.includes('owner') && row.roles.includes('owner')) {
    return 'Saving leaves this site without an owner.';
  }
  return null;
}

const sameRoles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((role) => b.includes(role));

/**
 * One person's roles and access switch; a failed save keeps the roles as ticked and says why.
 * The person's own row says before saving what the server would refuse (locking themself out);
 * switching someone else's access off asks first, naming them.
 */
function AccessRowView({ row, site, canManage, me, phone }: RowProps) {
  const { configApi } = useRuntime();
  const [roles, setRoles] = useState<string[]>(row.roles);
  // Two saves, so the button that was pressed is the one that shows it is busy.
  const rolesSave = useSave();
  const accessSave = useSave();
  const busy = rolesSave.pending || accessSave.pending;
  const error = rolesSave.error ?? accessSave.error;
  const [confirmingOff, setConfirmingOff] = useState(false);
  const who = row.name || row.main_email;
  const keepsOwnAccess = wouldLockThemselvesOut(me, { userId: row.userId, access: false }) === 'access';
  const warning = rolesWarning(row, roles, site, me);
  const locksOut = wouldLockThemselvesOut(me, { userId: row.userId, roles }) === 'roles';
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
          {warning && !sameRoles(roles, row.roles) ? (
            <Text size="sm" c={locksOut ? 'red.9' : undefined} role={locksOut ? 'alert' : undefined}>
              {warning}
            </Text>
          ) : null}
          <Group gap="xs">
            <Button
              size="xs"
              variant="light"
              disabled={sameRoles(roles, row.roles) || locksOut}
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
              {SITE_ROLES.find((known) => known.value === role)?.label ?? role}
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
    <>
      <Switch
        checked={row.access}
        // Nobody but an admin switches their own access off: they would lose the site.
        disabled={busy || (keepsOwnAccess && row.access)}
        onChange={(event) => {
          if (event.currentTarget.checked) switchAccess(true);
          else setConfirmingOff(true);
        }}
        label={row.access ? 'On' : 'Off'}
        description={
          keepsOwnAccess && row.access
            ? 'Your own: another installer or an admin can switch it off'
            : undefined
        }
        aria-label={`Access for ${who}`}
      />
      <Modal
        opened={confirmingOff}
        onClose={() => setConfirmingOff(false)}
        title={`Switch off access for ${who}?`}
      >
        <Stack>
          <Text>
            {who} ({row.main_email}) will no longer see {site.name} or its devices. Their roles are kept, so
            switching access on again gives everything back.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmingOff(false)}>
              Keep access
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirmingOff(false);
                switchAccess(false);
              }}
            >
              Switch off access for {who}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
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
export function SiteAccessTable({
  site,
  canManage,
  me,
}: {
  site: SiteDetails;
  canManage: boolean;
  me: Viewer;
}) {
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  if (site.access.length === 0) return <Text c="dimmed">Nobody has been given access to this site.</Text>;
  const rowKey = (row: AccessRow) => `${row.userId}:${row.roles.join()}:${row.access}`;
  const rowProps = { site, canManage, me };
  const note = canManage ? (
    <Text size="sm" c="dimmed">
      Owner is the site's one owner: giving the role to someone makes them the owner in place of the current
      one. Installers manage who has access.
    </Text>
  ) : null;
  if (phone) {
    return (
      <>
        {note}
        <Stack
          component="ul"
          gap="sm"
          aria-label={`People with access to ${site.name}`}
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {site.access.map((row) => (
            <AccessRowView key={rowKey(row)} row={row} {...rowProps} phone />
          ))}
        </Stack>
      </>
    );
  }
  return (
    <>
      {note}
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
              <AccessRowView key={rowKey(row)} row={row} {...rowProps} phone={false} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
