import { createFileRoute } from '@tanstack/react-router';
import { DeviceDetailsOldScreen } from '../features/devices/device-details-old-screen.tsx';
import { loadOpenDevice } from '../features/devices/open-device.ts';
import { OpenDeviceNotFound } from '../features/devices/open-device-not-found.tsx';

// Open without sign-in: no guard; the loader only checks the id against the bundled catalogue.
// The build prerenders the page for any device, with no catalogue to wait for (nothing answers
// at build time): there the check is left to the browser.
export const Route = createFileRoute('/device-details-old/$deviceid')({
  loader: ({ context, params }) =>
    typeof window === 'undefined' ? undefined : loadOpenDevice(context.runtime, params.deviceid),
  notFoundComponent: OpenDeviceNotFound,
  component: DeviceDetailsOldScreen,
});
