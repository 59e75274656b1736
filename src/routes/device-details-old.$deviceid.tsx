import { createFileRoute } from '@tanstack/react-router';
import { DeviceDetailsOldScreen } from '../features/devices/device-details-old-screen.tsx';

// Open without sign-in: no guard, no loader.
export const Route = createFileRoute('/device-details-old/$deviceid')({
  component: DeviceDetailsOldScreen,
});
