import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { SnapshotFrom } from 'xstate';
import type { bleUpdateMachine, UploadProgress } from '../../../../machines/firmware/ble-update-machine.ts';
import { useRuntime } from '../../../app/runtime-context.tsx';
import { fromTask, useTask } from '../../../app/use-task.ts';
import { loadFirmwareCodec } from '../../../codec/load-browser.ts';
import { useUnsavedWork } from '../../../components/leave-guard.tsx';
import { PageLoading } from '../../../components/page-state.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { fetchFirmwareImages, fetchFirmwareKeys } from './firmware-api.ts';
import { firmwareUpdateFor } from './firmware-update-setup.ts';

type UpdateSnapshot = SnapshotFrom<typeof bleUpdateMachine>;
type Setup = Awaited<ReturnType<typeof firmwareUpdateFor>>;

const BUSY = [
  'preparing',
  'connecting',
  'reading',
  'uploading',
  'reconnecting',
  'testing',
  'resetting',
  'restarting',
  'checking',
  'confirming',
] as const;
/** Leaving then would cut the update off half-way. */
const UNDER_WAY = [
  'uploading',
  'reconnecting',
  'testing',
  'resetting',
  'restarting',
  'checking',
  'confirming',
] as const;

function stepText(s: UpdateSnapshot): string {
  const { progress, resumedFrom } = s.context;
  const percent = percentOf(progress.sent, progress.total);
  if (s.matches('preparing')) return 'Downloading the image and checking it…';
  if (s.matches('connecting')) return 'Connecting to the device…';
  if (s.matches('reading')) return 'Reading what the device runs…';
  if (s.matches('uploading'))
    return resumedFrom !== null
      ? `Sending the image, resumed at ${percentOf(resumedFrom, progress.total)} %…`
      : 'Sending the image…';
  if (s.matches('reconnecting')) return `The connection was lost at ${percent} %: connecting again…`;
  if (s.matches('testing')) return 'Marking the new firmware to start once, on test…';
  if (s.matches('resetting')) return 'Restarting the device…';
  if (s.matches('restarting')) return 'Waiting for the device to start with its new firmware…';
  if (s.matches('checking')) return 'Checking the firmware the device runs now…';
  if (s.matches('confirming')) return 'Confirming the new firmware…';
  return '';
}

function percentOf(bytes: number, total: number): number {
  return total ? Math.floor((bytes * 100) / total) : 0;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** "42 % · 20.1 of 48.3 KiB · 14.2 KiB/s · about 3 s left". */
function progressText(p: UploadProgress): string {
  const parts = [`${percentOf(p.sent, p.total)} %`, `${kib(p.sent)} of ${kib(p.total)}`];
  if (p.rate && p.rate > 0) {
    parts.push(`${kib(p.rate)}/s`);
    const left = Math.ceil((p.total - p.sent) / p.rate);
    parts.push(left >= 60 ? `about ${Math.ceil(left / 60)} min left` : `about ${left} s left`);
  }
  return parts.join(' · ');
}

function Updater({
  setup,
  serial,
  offerId,
  version,
  running,
}: {
  setup: Setup;
  serial: string;
  offerId: number;
  version: string;
  running: string;
}) {
  const { logic, transports, demoLink } = setup;
  const actor = useActorRef(logic, {
    input: { serial, namePrefix: serial, offer: { id: offerId, version } },
  });
  const s = useSelector(actor, (snap) => snap);
  const busy = BUSY.some((state) => s.matches(state));
  useUnsavedWork(
    { id: `firmware-${serial}`, kind: 'bluetooth', label: `Firmware update of ${serial}` },
    UNDER_WAY.some((state) => s.matches(state)),
  );
  const viaDemo = s.context.transport?.kind === 'simulated';
  const bluetooth = transports.bluetooth;
  const showProgress = s.context.progress.total > 0 && (s.matches('uploading') || s.matches('reconnecting'));
  return (
    <Stack gap="sm">
      {s.matches('idle') ? (
        <>
          <Text>
            Firmware {version} is available; the device runs {running}. The device keeps its old firmware
            until the new one has started and answered.
          </Text>
          <Group>
            <Button
              disabled={!bluetooth || !s.can({ type: 'update.start', transport: bluetooth })}
              onClick={() => bluetooth && actor.send({ type: 'update.start', transport: bluetooth })}
            >
              Update to {version} over Bluetooth
            </Button>
            <Button
              variant="default"
              disabled={!s.can({ type: 'update.start', transport: transports.demo })}
              onClick={() => actor.send({ type: 'update.start', transport: transports.demo })}
            >
              Update the demo device
            </Button>
          </Group>
          {bluetooth ? null : (
            <Text size="sm" c="dimmed">
              This browser cannot use Bluetooth: open Fleet Manager in Chrome or Edge to update the device
              itself.
            </Text>
          )}
        </>
      ) : null}
      {busy ? (
        <Stack gap="xs" aria-live="polite">
          <Text fw={500}>{stepText(s)}</Text>
          {showProgress ? (
            <>
              <Progress
                value={(s.context.progress.sent * 100) / s.context.progress.total}
                aria-label="Upload progress"
                size="lg"
              />
              <Text size="sm">{progressText(s.context.progress)}</Text>
            </>
          ) : null}
          <Group>
            {s.can({ type: 'update.cancel' }) ? (
              <Button variant="default" onClick={() => actor.send({ type: 'update.cancel' })}>
                Cancel
              </Button>
            ) : null}
            {viaDemo && s.matches('uploading') ? (
              <Button
                variant="subtle"
                h="auto"
                py={6}
                // A phone's narrow card: the label wraps rather than running past the button.
                styles={{ label: { whiteSpace: 'normal' } }}
                onClick={() => demoLink.drop()}
              >
                Demo: take the device out of range
              </Button>
            ) : null}
          </Group>
        </Stack>
      ) : null}
      {s.matches('done') ? (
        <Alert color="teal" role="status" title="Updated">
          The device runs {s.context.after} now, confirmed.
          {s.context.resumedFrom !== null
            ? ` The upload went on from where the connection dropped, at ${percentOf(s.context.resumedFrom, s.context.progress.total)} %.`
            : ''}
        </Alert>
      ) : null}
      {s.context.problem ? (
        <Alert color="red" role="alert" title="The firmware was not updated">
          {s.context.problem}
        </Alert>
      ) : null}
      {s.matches('done') || s.context.problem ? (
        <Group>
          {s.can({ type: 'update.retry' }) ? (
            <Button onClick={() => actor.send({ type: 'update.retry' })}>Try again</Button>
          ) : null}
          <Button variant="default" onClick={() => actor.send({ type: 'update.dismiss' })}>
            Dismiss
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/**
 * Device details' firmware update over Bluetooth (SMP): the newest image of the model, if newer
 * than what the device runs, sent to the device (or the demo device) with progress, speed and time left.
 */
export function FirmwareUpdateSection({
  serial,
  modelId,
  running,
}: {
  serial: string;
  modelId: string;
  running: string | null;
}) {
  const { configApi } = useRuntime();
  const load = useMemo(
    () =>
      fromTask(async ({ signal }) => {
        const [firmware, images, trustedKeys] = await Promise.all([
          loadFirmwareCodec(),
          fetchFirmwareImages(configApi, modelId, signal),
          fetchFirmwareKeys(configApi, signal),
        ]);
        const newest = images[0];
        const current = running ?? '1.0.0';
        if (!newest || newest.version === current) return { newest: newest ?? null, setup: null, current };
        const setup = await firmwareUpdateFor({
          api: configApi,
          firmware,
          modelId,
          serial,
          running: current,
          trustedKeys,
        });
        return { newest, setup, current };
      }),
    [configApi, modelId, serial, running],
  );
  const state = useTask(load);
  return (
    <SectionCard title="Firmware update">
      {state.status === 'active' ? (
        <PageLoading label="Loading the firmware…" />
      ) : state.status === 'error' ? (
        <Alert color="red" role="alert" title="The firmware could not be loaded">
          {state.error instanceof Error ? state.error.message : String(state.error)}{' '}
          <Button variant="subtle" size="compact-sm" onClick={state.retry}>
            Try again
          </Button>
        </Alert>
      ) : !state.output.setup || !state.output.newest ? (
        <Text>
          {state.output.newest
            ? `The device runs ${state.output.current}, the newest firmware of its model.`
            : 'No firmware has been uploaded for this model yet.'}
        </Text>
      ) : (
        <Updater
          setup={state.output.setup}
          serial={serial}
          offerId={state.output.newest.id}
          version={state.output.newest.version}
          running={state.output.current}
        />
      )}
    </SectionCard>
  );
}
