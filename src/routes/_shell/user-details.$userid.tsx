import { createFileRoute } from '@tanstack/react-router';
import { PageLoading } from '../../components/page-state.tsx';
import { loadUserDetails } from '../../features/users/user-details-loader.ts';
import { UserDetailsScreen } from '../../features/users/user-details-screen.tsx';
import { UserLoadError } from '../../features/users/user-load-error.tsx';

export const Route = createFileRoute('/_shell/user-details/$userid')({
  loader: ({ context, params }) => loadUserDetails(context.runtime, params.userid),
  pendingComponent: () => <PageLoading label="Loading the user…" />,
  errorComponent: UserLoadError,
  component: UserDetailsScreen,
});
