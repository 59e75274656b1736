import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { onlineDevicesSchema } from '../../../contracts/service-comms.ts';
import { onlineDevicesMachine } from '../../../machines/devices-online/online-devices-machine.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { OnlineBadge } from './online-badge.tsx';

/**
 * Serial numbers of the devices the person may see that are connected now
 * (`GET /service-comms/devices/online`; no api-key on this path).
 *
 * @throws ApiError when the call fails
 */
export async function fetchOnlineSerials(api: ApiClient): Promise<string[]> {
  const answer = onlineDevicesSchema.parse(await api('/service-comms/devices/online'));
  return answer.devices.map((device) => device.serialNumber);
}

/**
 * Which devices are online now, polled while the screen is open (the screen starts the actor and
 * it stops with the screen). Answers a lookup by serial number. Shared by every screen that
 * lists devices (the devices list, a site's devices, device details), so the Online badge shows
 * the same everywhere.
 */
export function useOnlineDevices(api: ApiClient): (serial: string) => boolean {
  const logic = useMemo(
    () =>
      onlineDevicesMachine.provide({ actors: { fetchOnline: fromPromise(() => fetchOnlineSerials(api)) } }),
    [api],
  );
  const actor = useActorRef(logic);
  const online = useSelector(actor, (s) => s.context.online);
  const set = useMemo(() => new Set(online), [online]);
  return (serial) => set.has(serial);
}

/** The badge of one device (device details), polling on its own while the screen is open. */
export function DeviceOnlineBadge({ serial }: { serial: string }) {
  const isOnline = useOnlineDevices(useRuntime().configApi);
  return <OnlineBadge online={isOnline(serial)} />;
}
