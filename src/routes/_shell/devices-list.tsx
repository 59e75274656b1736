import { createFileRoute } from '@tanstack/react-router';
import { DEVICE_SORT_KEYS } from '../../../contracts/list-sort-keys.ts';
import { listSearchValidator } from '../../components/lists/list-search.ts';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadDevicesList } from '../../features/devices/devices-list-loader.ts';
import { DevicesListScreen } from '../../features/devices/devices-list-screen.tsx';

export const Route = createFileRoute('/_shell/devices-list')({
  validateSearch: listSearchValidator(DEVICE_SORT_KEYS),
  loaderDeps: ({ search }) => ({ page: search.page, q: search.q, sort: search.sort }),
  loader: ({ context, deps }) => loadDevicesList(context.runtime, deps),
  pendingComponent: () => <PageLoading label="Loading devices…" />,
  errorComponent: PageError,
  component: DevicesListScreen,
});
