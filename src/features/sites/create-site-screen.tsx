import { Stack } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import type { Site } from '../../../contracts/sites.ts';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
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
  // Saved: nothing is lost on the way to the new site.
  const save = useSave<Site>({
    onSaved: (site) =>
      navigate({ to: '/site-details/$siteid', params: { siteid: String(site.id) }, ignoreBlocker: true }),
  });
  return (
    <Stack gap="md">
      <ScreenHeader title="Create site" />
      <SiteForm
        mode="create"
        defaultValues={EMPTY_SITE_FORM}
        owners={owners}
        submitLabel="Create site"
        onSave={(values) => save.save((signal) => createSite(configApi, sitePayloadFromForm(values), signal))}
        save={save}
        // Cancel discards what was typed on purpose: no question.
        onCancel={() => void navigate({ to: '/sites-list', search: { page: 0 }, ignoreBlocker: true })}
      />
    </Stack>
  );
}
