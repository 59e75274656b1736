import { Stack } from '@mantine/core';
import { useActorRef } from '@xstate/react';
import { useCallback } from 'react';
import { configHistoryMachine } from '../../../../machines/ble/config-history-machine.ts';
import { useRuntime } from '../../../app/runtime-context.tsx';
import { createConfigHistoryActors, historyQueueFor } from './config-history-actors.ts';
import { ConfigHistorySection } from './config-history-section.tsx';
import { ConfigurePanel } from './configure-panel.tsx';
import type { VerifiedWrite } from './configure-session.ts';

/**
 * The signed-in device's Bluetooth configuration: the Configure panel for its model and serial,
 * and its configuration history, which every verified write adds to (queued while offline).
 * @example <DeviceConfiguration serial="HX5K-24-000123" modelId="HX-5000" />
 */
export function DeviceConfiguration({ serial, modelId }: { serial: string; modelId: string }) {
  const { configApi } = useRuntime();
  const history = useActorRef(
    configHistoryMachine.provide({
      actors: createConfigHistoryActors(configApi, historyQueueFor(configApi), window),
    }),
    { input: { serial } },
  );
  // Stable, so the panel's Bluetooth session is not restarted on every render.
  const onVerifiedWrite = useCallback(
    (write: VerifiedWrite) => history.send({ type: 'history.written', write }),
    [history],
  );
  return (
    <Stack gap="lg">
      <ConfigurePanel
        serialNumber={serial}
        productId={modelId}
        onVerifiedWrite={onVerifiedWrite}
        templatesApi={configApi}
      />
      <ConfigHistorySection history={history} />
    </Stack>
  );
}
