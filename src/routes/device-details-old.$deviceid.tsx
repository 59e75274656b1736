import { createFileRoute } from '@tanstack/react-router';
import { DeviceDetailsOldScreen } from '../features/devices/device-details-old-screen.tsx';

// Open without sign-in: no guard and no loader (the build prerenders it, and an unknown id is
// the screen's own not-found page once the catalogue has loaded).
export const Route = createFileRoute('/device-details-old/$deviceid')({
  component: DeviceDetailsOldScreen,
});
