import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconEdit } from '@tabler/icons-react';
import { getRouteApi } from '@tanstack/react-router';
import { toCsv } from '../../../contracts/csv.ts';
import type { Site } from '../../../contracts/sites.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { AnchorLink } from '../../components/anchor-link.tsx';
import { formatDate } from '../../components/format-date.ts';
import { collectAllPages, downloadCsv } from '../../components/lists/csv.ts';
import { type Column, DataList } from '../../components/lists/data-list.tsx';
import { ExportCsvButton } from '../../components/lists/export-csv-button.tsx';
import { EmptyState } from '../../components/page-state.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { Fact, SectionCard } from '../../components/section-card.tsx';
import { AlarmMailSetting } from './alarm-mail-setting.tsx';
import { LinkInstaller, SendAccessCode } from './user-actions.tsx';
import { ROLE_LABELS } from './user-columns.tsx';
import { UserEditForm } from './user-edit-form.tsx';
import { fetchUserSites } from './users-api.ts';

const route = getRouteApi('/_shell/user-details/$userid');

const SITE_COLUMNS: Column<Site>[] = [
  {
    key: 'name',
    header: 'Site',
    text: (site) => site.name,
    render: (site) => (
      <AnchorLink to="/site-details/$siteid" params={{ siteid: String(site.id) }}>
        {site.name}
      </AnchorLink>
    ),
  },
  { key: 'address', header: 'Address', text: (site) => site.displayAddress },
];

/**
 * User details: role, e-mail, phone, alarm mail, the user's sites; edit, access code, link to an
 * installer. One's own page is the menu's "Profile", where "Edit profile" opens the same form.
 */
export function UserDetailsScreen() {
  const { me, user, sites, installers, may } = route.useLoaderData();
  const { configApi } = useRuntime();
  const exportSites = async () => {
    const all = await collectAllPages((page, size) => fetchUserSites(configApi, user.id, page, size));
    downloadCsv(`user-${user.id}-sites.csv`, toCsv(all, SITE_COLUMNS));
  };
  const [editing, { open, close }] = useDisclosure(false);
  const self = me.id === user.id;
  return (
    <Stack gap="lg">
      <ScreenHeader
        title={user.name}
        description={user.main_email}
        actions={
          may.edit ? (
            <Button variant="light" leftSection={<IconEdit size={16} aria-hidden />} onClick={open}>
              {self ? 'Edit profile' : 'Edit user'}
            </Button>
          ) : null
        }
      />
      <SectionCard title="Account">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          <Fact label="Role">{ROLE_LABELS[user.role]}</Fact>
          <Fact label="E-mail">{user.main_email}</Fact>
          <Fact label="Phone">{user.phone || '—'}</Fact>
          <Fact label="Created">{formatDate(user.createdAt)}</Fact>
        </SimpleGrid>
        {may.edit ? (
          <Stack mt="md">
            <AlarmMailSetting user={user} self={self} />
          </Stack>
        ) : (
          <Text mt="md" size="sm">
            Alarm mail: {user.alarmMail ? 'on' : 'off'}
          </Text>
        )}
      </SectionCard>
      {may.manage ? (
        <SectionCard title="Manage">
          <Stack gap="md">
            <SendAccessCode user={user} />
            {may.linkInstaller ? <LinkInstaller user={user} installers={installers} /> : null}
          </Stack>
        </SectionCard>
      ) : null}
      <Stack component="section" aria-labelledby="user-sites" gap="sm">
        <Group justify="space-between" align="flex-end">
          <Title order={2} size="h4" id="user-sites">
            Sites
          </Title>
          {sites && sites.items.length > 0 ? (
            <ExportCsvButton onExport={exportSites} label={`Export CSV of the sites of ${user.name}`} />
          ) : null}
        </Group>
        {sites === null ? (
          <Text c="dimmed">This user's sites could not be listed.</Text>
        ) : sites.items.length === 0 ? (
          <EmptyState title="No sites" />
        ) : (
          <DataList
            label={`Sites of ${user.name}`}
            columns={SITE_COLUMNS}
            rows={sites.items}
            rowKey={(s) => s.id}
          />
        )}
      </Stack>
      {editing ? (
        <UserEditForm user={user} self={self} canChangeRole={may.changeRole && !self} onDone={close} />
      ) : null}
    </Stack>
  );
}
