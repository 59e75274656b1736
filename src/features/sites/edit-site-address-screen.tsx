import { Stack } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useRuntime } from '../../app/runtime-context.tsx';
import { useSave } from '../../app/use-save.ts';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { SiteForm } from './site-form.tsx';
import { siteFormValuesOf, sitePayloadFromForm } from './site-form-schema.ts';
import { updateSite } from './sites-api.ts';

const route = getRouteApi('/_shell/edit-site-address/$siteid');

/** Edit site address: the address control and position of one site; the rest stays as it is. */
export function EditSiteAddressScreen() {
  const { configApi } = useRuntime();
  const { site } = route.useLoaderData();
  const navigate = useNavigate();
  // Saved, or cancelled on purpose: no question on the way back.
  const back = () =>
    navigate({ to: '/site-details/$siteid', params: { siteid: String(site.id) }, ignoreBlocker: true });
  const save = useSave({ onSaved: back });
  return (
    <Stack gap="md">
      <ScreenHeader title="Edit site address" description={site.name} />
      <SiteForm
        mode="address"
        defaultValues={siteFormValuesOf(site)}
        submitLabel="Save address"
        onSave={(values) => {
          // Name and owner come from the site as loaded: this screen changes the address only.
          const payload = sitePayloadFromForm({
            ...values,
            name: site.name,
            ownerId: site.ownerId ? String(site.ownerId) : '',
          });
          save.save((signal) => updateSite(configApi, site.id, payload, signal));
        }}
        save={save}
        onCancel={() => void back()}
      />
    </Stack>
  );
}
