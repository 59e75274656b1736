import { createFileRoute } from '@tanstack/react-router';
import { listSearchValidator } from '../../components/lists/list-search.ts';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { DEVICE_SORT_KEYS } from '../../features/devices/device-sort-keys.ts';
import { loadDevicesList } from '../../features/devices/devices-list-loader.ts';
import { DevicesListScreen } from '../../features/devices/devices-list-screen.tsx';

export const Route = createFileRoute('/_shell/devices-list')({
  validateSearch: listSearchValidator(DEVICE_SORT_KEYS),
  loaderDeps: ({ search }) => ({ page: search.page, q: search.q }),
  loader: ({ context, deps }) => loadDevicesList(context.runtime, deps),
  pendingComponent: () => <PageLoading label="Loading devices…" />,
  errorComponent: PageError,
  component: DevicesListScreen,
});
