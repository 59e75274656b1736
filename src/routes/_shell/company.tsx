import { createFileRoute } from '@tanstack/react-router';
import { PageError, PageLoading } from '../../components/page-state.tsx';
import { loadCompany } from '../../features/companies/company-loader.ts';
import { CompanyScreen } from '../../features/companies/company-screen.tsx';

export const Route = createFileRoute('/_shell/company')({
  loader: ({ context }) => loadCompany(context.runtime),
  pendingComponent: () => <PageLoading label="Loading your company…" />,
  errorComponent: PageError,
  component: CompanyScreen,
});
