import { Alert, Anchor, Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconRefresh, IconX } from '@tabler/icons-react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { type Rollout, rolloutCounts } from '../../../contracts/firmware.ts';
import { rolloutMachine, type SteerAction } from '../../../machines/firmware/rollout-machine.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { formatDateTime } from '../../components/format-date.ts';
import { type Column, DataList } from '../../components/lists/data-list.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { Fact, SectionCard } from '../../components/section-card.tsx';
import { fetchRollout, steerRollout } from './firmware-page-api.ts';
import { DeviceStateBadge, loadNumber, RolloutProgress, RolloutStateBadge } from './rollout-labels.tsx';

const route = getRouteApi('/_shell/firmware-rollouts/$rolloutid');

/** The rollout's machine: it reads the rollout again while it runs and sends Pause, Resume, Cancel. */
function useRollout() {
  const { configApi } = useRuntime();
  const { rollout } = route.useLoaderData();
  return useActorRef(
    rolloutMachine.provide({
      actors: {
        read: fromPromise(({ input, signal }: { input: { id: number }; signal: AbortSignal }) =>
          fetchRollout(configApi, input.id, signal),
        ),
        steer: fromPromise(
          ({ input, signal }: { input: { id: number; action: SteerAction }; signal: AbortSignal }) =>
            steerRollout(configApi, input.id, input.action, signal),
        ),
      },
    }),
    { input: { rollout } },
  );
}

type RolloutRef = ReturnType<typeof useRollout>;

const devicesText = (n: number) => (n === 1 ? '1 device' : `${n} devices`);

const DEVICE_COLUMNS: Column<Rollout['devices'][number]>[] = [
  { key: 'serial', header: 'Device', text: (d) => d.serial },
  {
    key: 'state',
    header: 'State',
    text: (d) => d.state,
    render: (d) => <DeviceStateBadge state={d.state} />,
  },
  { key: 'version', header: 'Runs', text: (d) => d.version ?? 'Not reported yet' },
  { key: 'reason', header: 'Why', text: (d) => d.reason ?? '—' },
];

/**
 * A rollout's page: its image, settings and state, the progress of its devices, and each device's
 * state, version and reason, read again every second until nothing moves by itself any more;
 * Pause, Resume and Cancel when its state allows them. Behaviour is the rollout machine's.
 */
export function RolloutScreen() {
  // A new loader answer (another rollout, or a visit again) starts the machine again from it.
  return <RolloutPage key={loadNumber(route.useLoaderData())} />;
}

function RolloutPage() {
  const actor = useRollout();
  const rollout = useSelector(actor, (s) => s.context.rollout);
  const live = useSelector(actor, (s) => s.matches('live'));
  const refreshError = useSelector(actor, (s) => s.context.refreshError);
  const steerError = useSelector(actor, (s) => s.context.steerError);
  const counts = rolloutCounts(rollout.devices.map((device) => [device.state, 1]));
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/firmware" size="sm">
        ← Firmware
      </Anchor>
      <ScreenHeader
        title={`Rollout #${rollout.id}: ${rollout.modelId} ${rollout.version}`}
        badge={<RolloutStateBadge state={rollout.state} />}
        description={`Started ${formatDateTime(rollout.createdAt)}`}
        actions={<SteerButtons actor={actor} />}
      />
      <Text size="sm" c="dimmed" role="status" aria-live="polite">
        {live
          ? 'Live: read again every second while the rollout moves.'
          : 'Finished: nothing more moves by itself.'}
      </Text>
      {steerError ? (
        <Alert color="red" role="alert" title="The rollout was not changed">
          {steerError}
        </Alert>
      ) : null}
      {refreshError ? (
        <Alert color="yellow" role="alert" title="The rollout could not be read again">
          {refreshError} It is tried again in a moment; what is shown is from the last reading.
        </Alert>
      ) : null}
      <SectionCard title="Progress">
        <Stack gap="md">
          <RolloutProgress counts={counts} devices={rollout.devices.length} />
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
            <Fact label="Canary">{devicesText(rollout.canary)} first</Fact>
            <Fact label="Waves">{devicesText(rollout.waveSize)} each</Fact>
            <Fact label="Failure limit">Stops past {rollout.maxFailures}</Fact>
            <Fact label="Offline devices">Updated if back by {formatDateTime(rollout.windowEndsAt)}</Fact>
          </SimpleGrid>
        </Stack>
      </SectionCard>
      <SectionCard title="Devices">
        <DataList
          label="Devices of the rollout"
          columns={DEVICE_COLUMNS}
          rows={rollout.devices}
          rowKey={(d) => d.serial}
        />
      </SectionCard>
      <CancelDialog actor={actor} />
    </Stack>
  );
}

function SteerButtons({ actor }: { actor: RolloutRef }) {
  const canPause = useSelector(actor, (s) => s.can({ type: 'rollout.pause' }));
  const canResume = useSelector(actor, (s) => s.can({ type: 'rollout.resume' }));
  const canCancel = useSelector(actor, (s) => s.can({ type: 'rollout.cancel' }));
  const canRefresh = useSelector(actor, (s) => s.can({ type: 'rollout.refresh' }));
  const steering = useSelector(actor, (s) => s.context.steering);
  return (
    <Group gap="sm">
      {canResume || steering === 'resume' ? (
        <Button
          leftSection={<IconPlayerPlay size={16} aria-hidden />}
          disabled={!canResume}
          loading={steering === 'resume'}
          onClick={() => actor.send({ type: 'rollout.resume' })}
        >
          Resume
        </Button>
      ) : (
        <Button
          variant="light"
          leftSection={<IconPlayerPause size={16} aria-hidden />}
          disabled={!canPause}
          loading={steering === 'pause'}
          onClick={() => actor.send({ type: 'rollout.pause' })}
        >
          Pause
        </Button>
      )}
      <Button
        variant="default"
        color="red"
        leftSection={<IconX size={16} aria-hidden />}
        disabled={!canCancel}
        loading={steering === 'cancel'}
        onClick={() => actor.send({ type: 'rollout.cancel' })}
      >
        Cancel rollout
      </Button>
      {canRefresh ? (
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={() => actor.send({ type: 'rollout.refresh' })}
        >
          Refresh
        </Button>
      ) : null}
    </Group>
  );
}

function CancelDialog({ actor }: { actor: RolloutRef }) {
  const open = useSelector(actor, (s) => s.matches('confirmingCancel'));
  const keep = () => actor.send({ type: 'rollout.keep' });
  return (
    <Modal opened={open} onClose={keep} title="Cancel this rollout?">
      <Stack gap="sm">
        <Text size="sm">
          No device starts an update after this. A device that is uploading or restarting to test finishes;
          the others keep the firmware they run.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={keep}>
            Keep it
          </Button>
          <Button color="red.8" onClick={() => actor.send({ type: 'rollout.confirm' })}>
            Cancel rollout
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
