import { useSelector } from '@xstate/react';
import { devicesList, e1DevicesList } from '../../../machines/devices-list/devices-list-selectors.ts';
import { useRuntime } from '../../app/runtime-context.tsx';

/** Model id → display name from the devices list the shell keeps (both lists); the id when unknown. */
export function useModelName(): (modelId: string) => string {
  const { devicesList: listActor } = useRuntime();
  const models = useSelector(listActor, devicesList);
  const e1Models = useSelector(listActor, e1DevicesList);
  return (modelId) => models?.[modelId]?.name ?? e1Models?.[modelId]?.name ?? modelId;
}
