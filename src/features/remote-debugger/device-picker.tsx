import {
  Alert,
  Button,
  Group,
  Loader,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { isOnline, type RemoteDebuggerRef } from '../../../machines/remote-debugger/debugger-machine.ts';
import type { DebugPath } from '../../../machines/remote-debugger/exchange-log.ts';
import { OnlineBadge } from '../../components/devices/online-badge.tsx';

const PATHS: { value: DebugPath; label: string; hint: string }[] = [
  { value: 'remote', label: 'Remote', hint: 'through the service, while the device is online' },
  { value: 'bluetooth', label: 'Bluetooth', hint: 'from this computer, standing at the device' },
  { value: 'demo', label: 'Demo device', hint: 'a simulated device of this model, in this page' },
];

/** Finds a device by serial and chooses how to reach it. */
export function DevicePicker({ actor }: { actor: RemoteDebuggerRef }) {
  const query = useSelector(actor, (s) => s.context.query);
  const devices = useSelector(actor, (s) => s.context.devices);
  const searching = useSelector(actor, (s) => !s.matches({ search: 'idle' }));
  const searchProblem = useSelector(actor, (s) => s.context.searchProblem);
  const online = useSelector(actor, (s) => s.context.online);
  const onlineUnavailable = useSelector(actor, (s) => s.matches({ online: 'unavailable' }));
  const onlineProblem = useSelector(actor, (s) => s.context.onlineProblem);
  const device = useSelector(actor, (s) => s.context.device);
  const path = useSelector(actor, (s) => s.context.path);
  const snapshot = useSelector(actor, (s) => s);
  return (
    <Stack gap="sm" component="section" aria-labelledby="debugger-device-title">
      <Title order={2} size="h4" id="debugger-device-title">
        Device
      </Title>
      <TextInput
        label="Search by serial"
        description="Serial number, device name or site"
        value={query}
        onChange={(e) => actor.send({ type: 'debugger.search', query: e.currentTarget.value })}
        rightSection={searching ? <Loader size="xs" role="status" aria-label="Searching" /> : null}
      />
      {searchProblem ? (
        <Alert color="red" role="alert">
          {searchProblem}
        </Alert>
      ) : null}
      {onlineUnavailable ? (
        <Text size="sm" c="dimmed">
          This service does not report which devices are online, so the remote path is off.
        </Text>
      ) : null}
      {onlineProblem ? (
        <Alert color="yellow" role="alert">
          <Group gap="sm">
            <Text size="sm">{onlineProblem}</Text>
            <Button size="xs" variant="light" onClick={() => actor.send({ type: 'debugger.refreshOnline' })}>
              Try again
            </Button>
          </Group>
        </Alert>
      ) : null}
      {!searching && devices.length === 0 && !searchProblem ? (
        <Text size="sm" c="dimmed">
          No device matches “{query}”.
        </Text>
      ) : null}
      {device ? (
        <Radio.Group
          label={`Reach ${device.serialNumber} by`}
          // An offline device is never given the demo device in its place: the person chooses.
          description={
            path === null
              ? `${device.serialNumber} is not online now: choose Bluetooth to reach it at the device, or the demo device to try a command.`
              : undefined
          }
          value={path ?? ''}
          onChange={(value) => actor.send({ type: 'debugger.selectPath', path: value as DebugPath })}
        >
          <Stack gap={6} mt={6}>
            {PATHS.map((p) => (
              <Radio
                key={p.value}
                value={p.value}
                label={p.label}
                description={
                  p.value === 'remote' && !isOnline(online, device.serialNumber)
                    ? 'the device is not online now'
                    : p.hint
                }
                disabled={!snapshot.can({ type: 'debugger.selectPath', path: p.value })}
              />
            ))}
          </Stack>
        </Radio.Group>
      ) : null}
      <Stack
        gap={4}
        component="ul"
        aria-label="Devices found"
        mah={420}
        style={{ listStyle: 'none', padding: 0, margin: 0, overflowY: 'auto' }}
      >
        {devices.map((d) => {
          const chosen = device?.serialNumber === d.serialNumber;
          return (
            <li key={d.serialNumber}>
              <UnstyledButton
                onClick={() => actor.send({ type: 'debugger.selectDevice', device: d })}
                aria-pressed={chosen}
                disabled={!snapshot.can({ type: 'debugger.selectDevice', device: d })}
                p="xs"
                w="100%"
                style={{
                  borderRadius: 4,
                  border: `1px solid var(--mantine-color-${chosen ? 'blue-7' : 'gray-4'})`,
                }}
              >
                <Group gap="xs" justify="space-between" wrap="nowrap">
                  {/* Long names wrap, so the badge beside them keeps its width. */}
                  <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                    <Text fw={600} ff="monospace">
                      {d.serialNumber}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {d.name} · {d.siteName}
                    </Text>
                  </div>
                  <OnlineBadge online={isOnline(online, d.serialNumber)} />
                </Group>
              </UnstyledButton>
            </li>
          );
        })}
      </Stack>
    </Stack>
  );
}
