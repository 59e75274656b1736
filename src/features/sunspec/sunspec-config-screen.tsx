import '../../styles/mantine-all.css';
import { Alert, Anchor, Button, Code, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { sunspecConfigMachine } from '../../../machines/sunspec/sunspec-config-machine.ts';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { DeviceView } from './device-view.tsx';
import { SourceBar } from './source-bar.tsx';
import { loadSource, prepareTools } from './sunspec-actors.ts';

/** How a register dump is written, for someone who has one to open or paste. */
function DumpFormat() {
  return (
    <Stack gap={4} component="section" aria-labelledby="dump-format" maw={720}>
      <Title order={2} size="h5" id="dump-format">
        Dump format
      </Title>
      <Text size="sm">
        Hex text of the register bytes, 4 hex digits a register (big-endian), with any spacing and line breaks
        and # comments. An optional first word @address (decimal or 0x…) gives the address of the first
        register; a dump that starts with the SunSpec marker “SunS” and has none is read from 40000.
      </Text>
      <Code block>{'@40000\n5375 6e53   # SunS\n0001 0042  # model 1, 66 registers\n…'}</Code>
    </Stack>
  );
}

/**
 * The SunSpec configurator: open to everyone, no sign-in and no server calls. Everything it needs
 * (definitions, the codec) is bundled with the app and prepared once the page is in use; a device
 * asked for before that shows as being read until it is.
 */
export function SunSpecConfigScreen() {
  const logic = useMemo(
    () => sunspecConfigMachine.provide({ actors: { prepare: prepareTools, load: loadSource } }),
    [],
  );
  const actor = useActorRef(logic);
  const unavailable = useSelector(actor, (s) => s.matches('unavailable'));
  const error = useSelector(actor, (s) => s.context.error);
  const notice = useSelector(actor, (s) => s.context.notice);
  const loaded = useSelector(actor, (s) => s.context.loaded !== null);
  const skipped = useSelector(actor, (s) => s.context.loaded?.skipped ?? []);
  const reading = useSelector(
    actor,
    (s) => s.matches('loading') || (s.matches('preparing') && s.context.request !== null),
  );
  return (
    <Stack gap="md">
      <ScreenHeader
        title="SunSpec configuration"
        description="Read a SunSpec device's register map, change its settings, and copy the Modbus write requests."
      />
      {unavailable ? (
        <Alert color="red" title="The configurator could not start" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{error}</Text>
            <Button size="xs" variant="light" onClick={() => actor.send({ type: 'sunspec.retry' })}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {/* Shown while the models are prepared too (a device asked for waits for them), so the page
          the build prerenders is the page the app shows, and nothing moves when the models are in. */}
      {!unavailable ? <SourceBar actor={actor} /> : null}
      {error && !unavailable ? (
        <Alert
          color="red"
          title="That could not be loaded"
          role="alert"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => actor.send({ type: 'sunspec.dismiss' })}
        >
          {error}
        </Alert>
      ) : null}
      {notice ? (
        <Alert
          color="teal"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => actor.send({ type: 'sunspec.dismiss' })}
        >
          {notice}
        </Alert>
      ) : null}
      {skipped.length > 0 ? (
        <Alert
          color="yellow"
          role="status"
          // The theme's yellow on its own tint is below 4.5:1: the title keeps the body text colour.
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
          title={`${skipped.length} definition file${skipped.length === 1 ? ' was' : 's were'} skipped; the others loaded`}
        >
          <List size="sm">
            {skipped.map((file) => (
              <List.Item key={file.name}>
                <Text span fw={600} size="sm">
                  {file.name}
                </Text>
                : {file.reason}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {reading ? (
        <Group gap="xs" role="status">
          <Loader size="sm" />
          <Text>Reading…</Text>
        </Group>
      ) : null}
      {loaded ? (
        <DeviceView actor={actor} />
      ) : !unavailable && !reading ? (
        <Stack gap="xs">
          <Text c="dimmed">
            No device yet. Load the demo device, or open a register dump: hex text of the registers, with an
            optional @address first (
            <Anchor href="#dump-format" underline="always">
              see the dump format
            </Anchor>
            ).
          </Text>
          <DumpFormat />
        </Stack>
      ) : null}
    </Stack>
  );
}
