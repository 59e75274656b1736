import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadAlarms } from '../../features/alarms/alarms-loader.ts';
import { AlarmsScreen } from '../../features/alarms/alarms-screen.tsx';
import { alarmsSearch } from '../../features/alarms/alarms-search.ts';

export const Route = createFileRoute('/_shell/alarms')({
  validateSearch: alarmsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadAlarms(context.runtime, deps),
  pendingComponent: () => <PageLoading label="Loading alarms…" />,
  errorComponent: PageError,
  component: AlarmsScreen,
});
