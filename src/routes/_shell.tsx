import { createFileRoute } from '@tanstack/react-router';
import { requireAuth } from '../app/route-guards.ts';
import { ShellLayout } from '../components/shell/shell-layout.tsx';
import { AccountMenuItems } from '../features/account/account-menu-items.tsx';
import { CatalogueStatus } from '../features/catalogue/catalogue-status.tsx';

// Every screen inside the side-menu shell needs a user signed in to both services.
export const Route = createFileRoute('/_shell')({
  beforeLoad: requireAuth,
  component: () => (
    <ShellLayout
      catalogueStatus={<CatalogueStatus />}
      accountItems={(close) => <AccountMenuItems onOpen={close} />}
    />
  ),
});
