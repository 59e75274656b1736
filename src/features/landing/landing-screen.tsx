import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { getRouteApi, Link, useNavigate, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { currentEmail, currentUserName } from '../../../machines/auth/auth-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { FleetLiveStatus, useFleetLive } from '../../components/fleet-live.tsx';
import { formatDate } from '../../components/format-date.ts';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { SectionCard } from '../../components/section-card.tsx';
import { FleetOverview } from './fleet-overview.tsx';

const route = getRouteApi('/_shell/landing');

/**
 * Home: quick actions first (create a site, find a device: what a person came to do), then the
 * fleet overview (what is online, what is wrong, today's energy). The actions work while the
 * overview cannot be loaded.
 */
export function LandingScreen() {
  const { auth } = useRuntime();
  const name = useSelector(auth, currentUserName);
  const email = useSelector(auth, currentEmail);
  const { overview, error, mayCreateSite } = route.useLoaderData();
  // Counts, alarms and badges follow the fleet as it changes.
  const live = useFleetLive();
  const navigate = useNavigate();
  const router = useRouter();
  const findDevice = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const serial = String(new FormData(event.currentTarget).get('serial') ?? '').trim();
    if (serial) void navigate({ to: '/devices-list', search: { page: 0, q: serial } });
  };
  return (
    <Stack gap="lg">
      <ScreenHeader
        title="Home"
        description={`Welcome, ${name || email}. ${overview ? `Your fleet on ${formatDate(Date.now())}.` : ''}`}
      />
      <SectionCard title="Quick actions">
        <Group align="flex-end" gap="md" wrap="wrap">
          {mayCreateSite ? (
            <Button
              renderRoot={(props) => <Link {...props} to="/create-site" />}
              leftSection={<IconPlus size={16} aria-hidden />}
            >
              Create a site
            </Button>
          ) : null}
          <search style={{ flex: '1 1 280px' }}>
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
        </Group>
      </SectionCard>
      {overview ? (
        <Stack gap="xs">
          <FleetLiveStatus actor={live} />
          <FleetOverview overview={overview} />
        </Stack>
      ) : (
        <Alert color="red" role="alert" title="The fleet overview could not be loaded">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{error}</Text>
            <Button variant="light" size="xs" onClick={() => void router.invalidate()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
