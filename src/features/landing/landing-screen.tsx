import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { currentEmail, currentUserName } from '../../../machines/auth/auth-selectors.ts';
import { listVersion } from '../../../machines/catalogue/catalogue-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { AnchorLink } from '../../components/anchor-link.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { SectionCard } from '../../components/section-card.tsx';

const route = getRouteApi('/_shell/landing');

function Count({
  label,
  value,
  to,
}: {
  label: string;
  value: number | null;
  to: '/sites-list' | '/devices-list' | '/users-list';
}) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={32} fw={700} lh={1.2}>
        {value === null ? '—' : value.toLocaleString()}
      </Text>
      <AnchorLink to={to} search={{ page: 0 }} size="sm">
        {value === null ? `${label} could not be counted: open the list` : `See all ${label.toLowerCase()}`}
      </AnchorLink>
    </Card>
  );
}

/** Home: counts, the newest sites, quick actions and the catalogue's version. */
export function LandingScreen() {
  const { auth, catalogue } = useRuntime();
  const name = useSelector(auth, currentUserName);
  const email = useSelector(auth, currentEmail);
  const version = useSelector(catalogue, listVersion);
  const { user, sites, devices, users, recent } = route.useLoaderData();
  const navigate = useNavigate();
  const findDevice = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const serial = String(new FormData(event.currentTarget).get('serial') ?? '').trim();
    if (serial) void navigate({ to: '/devices-list', search: { page: 0, q: serial } });
  };
  return (
    <Stack gap="lg">
      <ScreenHeader title="Home" description={`Welcome, ${name || email}.`} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Count label="Sites" value={sites} to="/sites-list" />
        <Count label="Devices" value={devices} to="/devices-list" />
        <Count label="Users" value={users} to="/users-list" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SectionCard title="Quick actions">
          <Stack gap="md">
            {user && user.role !== 'owner' ? (
              <Group>
                <Button
                  renderRoot={(props) => <Link {...props} to="/create-site" />}
                  leftSection={<IconPlus size={16} aria-hidden />}
                >
                  Create a site
                </Button>
              </Group>
            ) : null}
            <search>
              <form onSubmit={findDevice}>
                <Group align="flex-end" gap="xs" wrap="nowrap">
                  <TextInput
                    name="serial"
                    label="Find a device by serial"
                    placeholder="HX5K-24-000123"
                    style={{ flex: 1 }}
                  />
                  <Button type="submit" variant="light" leftSection={<IconSearch size={16} aria-hidden />}>
                    Find
                  </Button>
                </Group>
              </form>
            </search>
            <Text size="sm" c="dimmed">
              {version === -1 ? 'Devices list: bundled copy' : `Devices list v${version}`}
            </Text>
          </Stack>
        </SectionCard>
        <SectionCard title="Newest sites">
          {recent === null ? (
            <Text c="dimmed">The newest sites could not be loaded.</Text>
          ) : recent.length === 0 ? (
            <Text c="dimmed">No sites yet.</Text>
          ) : (
            <Stack component="ul" gap={6} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {recent.map((site) => (
                // A long name without spaces wraps inside the card on a phone.
                <li key={site.id} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  <AnchorLink to="/site-details/$siteid" params={{ siteid: String(site.id) }}>
                    {site.name}
                  </AnchorLink>
                  <Text size="sm" c="dimmed">
                    {site.displayAddress}
                  </Text>
                </li>
              ))}
            </Stack>
          )}
        </SectionCard>
      </SimpleGrid>
    </Stack>
  );
}
