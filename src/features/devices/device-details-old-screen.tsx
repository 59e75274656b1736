import { Stack } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { serialNumberPattern } from '../../../contracts/catalogue.ts';
import { OpenScreen } from '../../components/open-screen.tsx';
import { ScreenHeader } from '../../components/screen-header.tsx';
import { ConfigurePanel } from './configure/configure-panel.tsx';

const route = getRouteApi('/device-details-old/$deviceid');

/** The older device details, open without sign-in: a serial number (`HX5K-24-000123`) or a model id. */
export function DeviceDetailsOldScreen() {
  const { deviceid } = route.useParams();
  const isSerial = serialNumberPattern.test(deviceid);
  return (
    <OpenScreen>
      <Stack gap="lg">
        <ScreenHeader
          title="Device details"
          description={isSerial ? `Serial number ${deviceid}` : `Model ${deviceid}`}
        />
        <ConfigurePanel {...(isSerial ? { serialNumber: deviceid } : { productId: deviceid })} />
      </Stack>
    </OpenScreen>
  );
}
