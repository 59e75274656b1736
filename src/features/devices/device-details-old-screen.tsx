import { Stack, Text, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { serialNumberPattern } from '../../../contracts/catalogue.ts';
import { OpenScreen } from '../../components/open-screen.tsx';
import { ConfigurePanel } from './configure/configure-panel.tsx';

const route = getRouteApi('/device-details-old/$deviceid');

/** The older device details, open without sign-in: a serial number (`HX5K-24-000123`) or a model id. */
export function DeviceDetailsOldScreen() {
  const { deviceid } = route.useParams();
  const isSerial = serialNumberPattern.test(deviceid);
  return (
    <OpenScreen>
      <Stack gap="lg">
        <div>
          <Title order={1} size="h2">
            Device details
          </Title>
          <Text c="gray.7">{isSerial ? `Serial number ${deviceid}` : `Model ${deviceid}`}</Text>
        </div>
        <ConfigurePanel {...(isSerial ? { serialNumber: deviceid } : { productId: deviceid })} />
      </Stack>
    </OpenScreen>
  );
}
