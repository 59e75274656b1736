import { Alert, Grid, Group, Loader, Stack, Text } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { AnswerPanel } from './answer-panel.tsx';
import { ComposePanel } from './compose-panel.tsx';
import { DevicePicker } from './device-picker.tsx';
import { LogPanel } from './log-panel.tsx';

const route = getRouteApi('/_shell/remote-debugger');

/** The Remote Debugger: a raw command console for one device, remote, over Bluetooth or the demo device. */
export function RemoteDebuggerScreen() {
  // The console built with the page's data, kept for as long as the page is shown: should the
  // loader run again meanwhile, the console and its Bluetooth links stay the ones in use.
  const loaded = route.useLoaderData();
  const [debuggerConsole] = useState(loaded.console);
  // Read once: the stored log seeds the console, which owns it from then on.
  const [input] = useState(debuggerConsole.start);
  const actor = useActorRef(debuggerConsole.logic, { input });
  // Bluetooth links belong to this page: leaving it closes them.
  useEffect(() => debuggerConsole.close, [debuggerConsole]);
  const loadingProduct = useSelector(actor, (s) => s.matches({ console: 'loadingProduct' }));
  const productProblem = useSelector(actor, (s) => s.context.productProblem);
  const noDevice = useSelector(actor, (s) => s.matches({ console: 'noDevice' }));
  return (
    <Stack gap="lg">
      <ScreenHeader
        title="Remote Debugger"
        description="Send a device a raw command and read its answer, from your desk or at the device. Raw frames are for company staff only: the service refuses them from anyone else, who may send only a device's catalogue commands."
      />
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <DevicePicker actor={actor} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            {noDevice ? <Text c="dimmed">Choose a device to compose a command for it.</Text> : null}
            {loadingProduct ? (
              <Group gap="xs" role="status">
                <Loader size="sm" aria-hidden />
                <Text>Loading the device's catalogue entry…</Text>
              </Group>
            ) : null}
            {productProblem ? (
              <Alert color="red" role="alert">
                {productProblem}
              </Alert>
            ) : null}
            <ComposePanel actor={actor} />
            <AnswerPanel actor={actor} />
          </Stack>
        </Grid.Col>
      </Grid>
      <LogPanel actor={actor} />
    </Stack>
  );
}
