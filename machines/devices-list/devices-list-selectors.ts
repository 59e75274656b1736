import type { SnapshotFrom } from 'xstate';
import type { DevicesList } from '../../contracts/devices-list.ts';
import type { devicesListMachine } from './devices-list-machine.ts';

export type DevicesListSnapshot = SnapshotFrom<typeof devicesListMachine>;

/** Version of the downloaded list; -1 before the first download and after a failed one. */
export const listVersion = (s: DevicesListSnapshot): number => s.context.listVersion;

/** Device models by id (downloaded, or the bundled fallback); null until the first load ends. */
export const devicesList = (s: DevicesListSnapshot): DevicesList['devicesList'] | null =>
  s.context.devicesList;

/** E1 device models by id; null until loaded. */
export const e1DevicesList = (s: DevicesListSnapshot): DevicesList['devicesList'] | null =>
  s.context.e1DevicesList;

/** Product key → `{product}-to-form.json`; null until loaded. */
export const convertList = (s: DevicesListSnapshot) => s.context.convertList;

/** `ERROR getting Devices List.` and the serialized response after a failed download, else null. */
export const devicesListError = (s: DevicesListSnapshot): string | null => s.context.error;

/** The download failed and the bundled copy could not be read either. */
export const fallbackFailed = (s: DevicesListSnapshot): boolean => s.context.fallbackFailed;

/** True while the list loads or reloads. */
export const isLoading = (s: DevicesListSnapshot): boolean => s.matches('loading') || s.matches('refreshing');
