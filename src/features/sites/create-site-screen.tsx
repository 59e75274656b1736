import { Stack } from '@mantine/core';
import { getRouteApi, useNavigate, useRouter } from '@tanstack/react-router';
import { useRuntime } from '../../app/runtime-context.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { SiteForm } from './site-form.tsx';
import { EMPTY_SITE_FORM, sitePayloadFromForm } from './site-form-schema.ts';
import { createSite } from './sites-api.ts';

const route = getRouteApi('/_shell/create-site');

/** Create site: name, address (with the address control), position and an optional owner. */
export function CreateSiteScreen() {
  const { configApi } = useRuntime();
  const { owners } = route.useLoaderData();
  const navigate = useNavigate();
  const router = useRouter();
  return (
    <Stack gap="md">
      <ScreenHeader title="Create site" />
      <SiteForm
        mode="create"
        defaultValues={EMPTY_SITE_FORM}
        owners={owners}
        submitLabel="Create site"
        onSave={async (values) => {
          const site = await createSite(configApi, sitePayloadFromForm(values));
          await router.invalidate();
          await navigate({ to: '/site-details/$siteid', params: { siteid: String(site.id) } });
        }}
        // Cancel discards what was typed on purpose: no question.
        onCancel={() => void navigate({ to: '/sites-list', search: { page: 0 }, ignoreBlocker: true })}
      />
    </Stack>
  );
}
