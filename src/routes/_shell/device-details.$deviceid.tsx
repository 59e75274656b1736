import { createFileRoute } from '@tanstack/react-router';
import { PageLoading } from '../../components/page-state.tsx';
import { loadDeviceDetails } from '../../features/devices/device-details-loader.ts';
import { DeviceDetailsScreen } from '../../features/devices/device-details-screen.tsx';
import { DeviceLoadError } from '../../features/devices/device-load-error.tsx';
import { deviceSearch } from '../../features/devices/device-search.ts';

export const Route = createFileRoute('/_shell/device-details/$deviceid')({
  validateSearch: deviceSearch,
  loaderDeps: ({ search }) => ({ serial: search.serial }),
  loader: ({ context, params, deps }) => loadDeviceDetails(context.runtime, params.deviceid, deps.serial),
  pendingComponent: () => <PageLoading label="Loading the device…" />,
  errorComponent: DeviceLoadError,
  component: DeviceDetailsScreen,
});
