import { Alert, Grid, Group, Loader, Stack, Text } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { remoteDebuggerMachine } from '../../../machines/remote-debugger/debugger-machine.ts';
import { loadStoredLog, storeLog } from '../../../machines/remote-debugger/exchange-log.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { WebBluetoothTransport } from '../../ble/web-bluetooth-transport.ts';
import { browserBluetooth } from '../../ble/web-bluetooth-types.ts';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { loadBundledProduct, readBundledFile } from '../../device-config/load-product.ts';
import { StorageConfigStore } from '../../device-sim/config-store.ts';
import { AnswerPanel } from './answer-panel.tsx';
import { ComposePanel } from './compose-panel.tsx';
import { createDebuggerActors } from './debugger-actors.ts';
import { DevicePicker } from './device-picker.tsx';
import { LogPanel } from './log-panel.tsx';

const route = getRouteApi('/_shell/remote-debugger');

/** The Remote Debugger: a raw command console for one device, remote, over Bluetooth or the demo device. */
export function RemoteDebuggerScreen() {
  const { user, codec } = route.useLoaderData();
  const runtime = useRuntime();
  const { logic, close } = useMemo(() => {
    const made = createDebuggerActors({
      api: runtime.configApi,
      userId: user.id,
      codec,
      loadProduct: (modelId) => loadBundledProduct({ productId: modelId }, readBundledFile),
      webTransport: new WebBluetoothTransport(browserBluetooth()),
      demoStore: new StorageConfigStore(window.localStorage),
    });
    const provided = remoteDebuggerMachine.provide({
      actors: made.actors,
      actions: { persistLog: (_, params) => storeLog(window.localStorage, params.log) },
    });
    return { logic: provided, close: made.close };
  }, [runtime, user.id, codec]);
  // Read once: the stored log seeds the console, which owns it from then on.
  const [storedLog] = useState(() => loadStoredLog(window.localStorage));
  const actor = useActorRef(logic, { input: { codec, log: storedLog } });
  // Bluetooth links belong to this page: leaving it closes them.
  useEffect(() => close, [close]);
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
