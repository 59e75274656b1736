import '../../styles/mantine-all.css';
import { Stack } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { serialNumberPattern } from '../../../contracts/catalogue.ts';
import { OpenScreen } from '../../components/open-screen.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { useHydrated } from '../../components/use-hydrated.ts';
import { ConfigurePanel } from './configure/configure-panel.tsx';

const route = getRouteApi('/device-details-old/$deviceid');

/**
 * The older device details, open without sign-in: a serial number (`HX5K-24-000123`) or a model id.
 * The build prerenders it once for every device, so the line naming the device is left blank (one
 * line, kept so nothing below moves) until the app has taken the page over.
 */
export function DeviceDetailsOldScreen() {
  const { deviceid } = route.useParams();
  const hydrated = useHydrated();
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
