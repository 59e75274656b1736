import { Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { fleetLiveMachine } from '../../machines/monitoring/fleet-live-machine.ts';
import { createFleetStreamActor } from '../api/fleet-stream.ts';
import { usePageRefresh } from '../app/page-refresh.ts';
import { useRuntime } from '../app/runtime-context.tsx';

/**
 * Keeps the screen's counts, alarms and online badges current while it is open: the fleet live
 * machine follows the service's fleet stream and runs the page's loaders again when something
 * changes at the screen's site (any site without one). The screen starts it; it stops with it.
 */
export function useFleetLive(siteId?: number) {
  const { config, session } = useRuntime();
  const refresh = usePageRefresh();
  const logic = useMemo(
    () =>
      fleetLiveMachine.provide({
        actors: { stream: createFleetStreamActor({ baseURL: config.monitoringUrl, session }), refresh },
      }),
    [config.monitoringUrl, session, refresh],
  );
  return useActorRef(logic, { input: siteId === undefined ? {} : { siteId } });
}

export type FleetLiveRef = ReturnType<typeof useFleetLive>;

/** Says whether what the screen shows follows the fleet as it changes, or why not now. */
export function FleetLiveStatus({ actor }: { actor: FleetLiveRef }) {
  const text = useSelector(actor, (s) =>
    s.matches({ connection: { streaming: 'open' } })
      ? 'Updates live.'
      : s.matches({ connection: 'retrying' })
        ? 'Live updates paused: reconnecting…'
        : s.matches({ connection: 'refused' })
          ? 'Live updates are not available: reload to see changes.'
          : 'Connecting to live updates…',
  );
  return (
    <Text size="xs" c="dimmed" data-testid="fleet-live-status">
      {text}
    </Text>
  );
}
