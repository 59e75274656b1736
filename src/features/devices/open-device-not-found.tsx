import { Anchor } from '@mantine/core';
import { getRouteApi, Link } from '@tanstack/react-router';
import { NotFoundPage } from '../../components/lost-page.tsx';

const route = getRouteApi('/device-details-old/$deviceid');

/** A serial or model the catalogue does not know, on the screen that needs no sign-in. */
export function OpenDeviceNotFound() {
  const { deviceid } = route.useParams();
  return (
    <NotFoundPage
      title={`No device ${deviceid}`}
      links={
        <Anchor component={Link} to="/device-details-old">
          Pick a device by serial and model
        </Anchor>
      }
    >
      “{deviceid}” is neither a serial number of a known model (such as HX5K-24-000123) nor a model of the
      catalogue. Check the label on the device.
    </NotFoundPage>
  );
}
