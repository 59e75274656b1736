import '../../styles/mantine-all.css';
import { Stack, Text } from '@mantine/core';
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
 * line, kept so nothing below moves) until the app has taken the page over. What the page is for
 * is said from the first paint, while the catalogue and the device's configuration load.
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
        <Text>
          Configure the device over Bluetooth from this page, with no sign-in: connect to it, watch its live
          values and change its settings; every write is read back from the device to check it. No device at
          hand? The demo device, simulated in this page, answers in its place.
        </Text>
        <ConfigurePanel {...(isSerial ? { serialNumber: deviceid } : { productId: deviceid })} />
      </Stack>
    </OpenScreen>
  );
}
