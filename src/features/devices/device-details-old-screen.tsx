import { Stack } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { serialNumberPattern } from '../../../contracts/catalogue.ts';
import {
  catalogueModels,
  e1CatalogueModels,
  isLoading,
} from '../../../machines/catalogue/catalogue-selectors.ts';
import { OpenScreen } from '../../components/open-screen.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { useHydrated } from '../../components/use-hydrated.ts';
import { ConfigurePanel } from './configure/configure-panel.tsx';
import { isKnownDevice } from './open-device.ts';
import { OpenDeviceNotFound } from './open-device-not-found.tsx';

const route = getRouteApi('/device-details-old/$deviceid');

/**
 * The older device details, open without sign-in: a serial number (`HX5K-24-000123`) or a model id.
 * The build prerenders it once for every device, so the line naming the device is left blank (one
 * line, kept so nothing below moves) until the app has taken the page over. An id the catalogue
 * does not know is the app's not-found page, once the catalogue has loaded.
 */
export function DeviceDetailsOldScreen() {
  const { deviceid } = route.useParams();
  const hydrated = useHydrated();
  const { catalogue } = route.useRouteContext().runtime;
  const unknown = useSelector(catalogue, (s) => {
    if (isLoading(s)) return false;
    const models = { ...(catalogueModels(s) ?? {}), ...(e1CatalogueModels(s) ?? {}) };
    // With no catalogue at all (download and bundled copy failed), the panel says why instead.
    return Object.keys(models).length > 0 && !isKnownDevice(models, deviceid);
  });
  if (unknown) return <OpenDeviceNotFound />;
  const isSerial = serialNumberPattern.test(deviceid);
  const device = isSerial ? `Serial number ${deviceid}` : `Model ${deviceid}`;
  return (
    <OpenScreen>
      <Stack gap="lg">
        <ScreenHeader title="Device details" description={hydrated ? device : '\u00a0'} />
        <ConfigurePanel {...(isSerial ? { serialNumber: deviceid } : { productId: deviceid })} />
      </Stack>
    </OpenScreen>
  );
}
