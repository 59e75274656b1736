import { Alert, Button, Code, Group, Loader, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useActor } from '@xstate/react';
import { useMemo, useState } from 'react';
import type { Device } from '../../../contracts/devices.ts';
import type { DeviceAction } from '../../../machines/commissioning/device-action-machine.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { usePageRefresh } from '../../app/page-refresh.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { fromTask, useTask } from '../../app/use-task.ts';
import { FormFooter } from '../../components/form-footer.tsx';
import { LoadFailed } from '../../components/page-state.tsx';
import { deviceActionsFor } from './device-action-actors.ts';
import { fetchMoveTargets } from './devices-api.ts';

const TITLES: Record<DeviceAction['kind'], string> = {
  rename: 'Rename device',
  move: 'Move to another site',
  replace: 'Replace with a new unit',
  remove: 'Take off this site',
};

/** What each action does to the device's history, said before it is confirmed. */
const HISTORY: Record<DeviceAction['kind'], string> = {
  rename:
    'The configuration history stays with the device; the change is recorded on the site and the device.',
  move: 'The device keeps its configuration history and its secret. The people of the new site see it, and its history; the people of this site no longer do. The move is recorded on both sites.',
  replace:
    'The new unit takes this one’s name and place on the site and gets a secret of its own. This unit leaves the site and stops reaching the service; both keep their configuration history (this one’s stays readable to company staff).',
  remove:
    'The device leaves the site and stops reaching the service. Its configuration history stays readable to company staff; it can be put on a site again later.',
};

/** The sites a device can move to; dropped (aborted) when the dialog closes first. */
const loadMoveTargets = fromTask(
  ({
    input,
    signal,
  }: {
    input: { api: ApiClient; userId: number; fromSiteId: number };
    signal: AbortSignal;
  }) => fetchMoveTargets(input.api, input.userId, input.fromSiteId, signal),
);

/**
 * The new site of a move, by name and address (never an id). A failed read says why, with
 * "Try again", rather than offering an empty list.
 */
function MoveSitePicker({
  device,
  userId,
  value,
  onChange,
}: {
  device: Device;
  userId: number;
  value: string;
  onChange: (siteId: string) => void;
}) {
  const { configApi } = useRuntime();
  const state = useTask(loadMoveTargets, { api: configApi, userId, fromSiteId: device.siteId });
  if (state.status === 'error')
    return <LoadFailed title="Your sites could not be loaded" error={state.error} onRetry={state.retry} />;
  if (state.status !== 'done') return <Loader size="sm" aria-label="Loading your sites" />;
  const sites = state.output.map((site) => ({
    value: String(site.id),
    label: site.displayAddress ? `${site.name} · ${site.displayAddress}` : site.name,
  }));
  return (
    <Select
      label="New site"
      required
      searchable
      data={sites}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
      nothingFoundMessage={sites.length === 0 ? 'You see no other site' : 'No other site of yours matches'}
    />
  );
}

function ActionForm({
  kind,
  device,
  userId,
  error,
  working,
  onConfirm,
  onCancel,
}: {
  kind: DeviceAction['kind'];
  device: Device;
  userId: number;
  error: string | null;
  working: boolean;
  onConfirm: (action: DeviceAction) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(kind === 'rename' ? device.name : '');
  const [claimCode, setClaimCode] = useState('');
  const action = (): DeviceAction | null => {
    if (kind === 'remove') return { kind };
    if (kind === 'rename') return text.trim() ? { kind, name: text.trim() } : null;
    if (kind === 'move') return text ? { kind, siteId: Number(text) } : null;
    if (!text.trim()) return null;
    return claimCode.trim()
      ? { kind, serial: text.trim(), claimCode: claimCode.trim() }
      : { kind, serial: text.trim() };
  };
  const ready = action();
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) onConfirm(ready);
      }}
    >
      <Stack gap="sm">
        {kind === 'rename' ? (
          <TextInput
            label="Name"
            required
            maxLength={80}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
        ) : null}
        {kind === 'move' ? (
          <MoveSitePicker device={device} userId={userId} value={text} onChange={setText} />
        ) : null}
        {kind === 'replace' ? (
          <TextInput
            label="Serial number of the new unit"
            placeholder={`${device.serial.split('-')[0]}-24-000123`}
            required
            autoComplete="off"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
        ) : null}
        {kind === 'replace' ? (
          <TextInput
            label="Claim code of the new unit"
            description="On its label, beside the serial; units made before claim codes have none"
            placeholder="K7M2-Q9XD-4TRW-8HNB"
            autoComplete="off"
            maxLength={64}
            value={claimCode}
            onChange={(e) => setClaimCode(e.currentTarget.value)}
          />
        ) : null}
        <Text size="sm">
          {kind === 'remove' ? `Take ${device.serial} (${device.name}) off ${device.siteName}? ` : null}
          {HISTORY[kind]}
        </Text>
        <FormFooter
          error={error}
          errorTitle="Nothing was changed"
          submitLabel={kind === 'remove' ? 'Take off the site' : TITLES[kind]}
          {...(kind === 'remove' && { submitColor: 'red.8' })}
          pending={working}
          submitDisabled={!ready}
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}

/**
 * Rename, move, replace and take off a device, from its page, for those who install on its
 * site; each is confirmed in a dialog that says what happens to the history.
 */
export function DeviceInstallActions({ device, userId }: { device: Device; userId: number }) {
  const { configApi } = useRuntime();
  const refresh = usePageRefresh();
  const navigate = useNavigate();
  const machine = useMemo(
    () =>
      deviceActionsFor({
        api: configApi,
        deviceId: device.id,
        refresh,
        leave: () =>
          void navigate({ to: '/site-details/$siteid', params: { siteid: String(device.siteId) } }),
      }),
    [configApi, device.id, device.siteId, navigate, refresh],
  );
  const [state, send] = useActor(machine);
  const { open, error, result } = state.context;
  const replaced = result?.kind === 'replaced' ? result.device : null;
  return (
    <>
      <Group gap="xs">
        {(['rename', 'move', 'replace', 'remove'] as const).map((kind) => (
          <Button
            key={kind}
            variant={kind === 'remove' ? 'outline' : 'light'}
            color={kind === 'remove' ? 'red.8' : undefined}
            onClick={() => send({ type: 'action.open', kind })}
          >
            {TITLES[kind]}
          </Button>
        ))}
      </Group>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={open !== null}
        onClose={() => send({ type: 'action.cancel' })}
        title={open ? TITLES[open] : ''}
      >
        {replaced ? (
          <Stack gap="sm">
            {replaced.claimedAt ? (
              // A claimed unit is given its secret over Bluetooth, from its own page.
              <Alert color="teal" role="status" title={`${replaced.serial} replaced ${device.serial}`}>
                It is claimed for this site. Connect to it over Bluetooth from its page to give it its network
                settings.
              </Alert>
            ) : (
              <>
                <Alert color="teal" role="status" title={`${replaced.serial} replaced ${device.serial}`}>
                  The new unit's service-comms secret, shown this once:
                </Alert>
                <Code block style={{ wordBreak: 'break-all' }}>
                  {replaced.secret}
                </Code>
              </>
            )}
            <Group justify="flex-end">
              <Button
                onClick={() =>
                  navigate({
                    to: '/device-details/$deviceid',
                    params: { deviceid: replaced.modelId },
                    search: { serial: replaced.serial },
                  })
                }
              >
                Open the new unit
              </Button>
            </Group>
          </Stack>
        ) : open ? (
          <ActionForm
            kind={open}
            device={device}
            userId={userId}
            error={error}
            working={state.matches('working') || state.matches('refreshing')}
            onConfirm={(action) => send({ type: 'action.confirm', action })}
            onCancel={() => send({ type: 'action.cancel' })}
          />
        ) : null}
      </Modal>
    </>
  );
}
