import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadUsersList } from '../../features/users/users-list-loader.ts';
import { UsersListScreen } from '../../features/users/users-list-screen.tsx';
import { usersSearch } from '../../features/users/users-search.ts';

export const Route = createFileRoute('/_shell/users-list')({
  validateSearch: usersSearch,
  loaderDeps: ({ search }) => ({ page: search.page, q: search.q, sort: search.sort, role: search.role }),
  loader: ({ context, deps }) => loadUsersList(context.runtime, deps),
  pendingComponent: () => <PageLoading label="Loading users…" />,
  errorComponent: PageError,
  component: UsersListScreen,
});
