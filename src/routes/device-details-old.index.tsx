import { createFileRoute } from '@tanstack/react-router';
import { loadedModels } from '../features/devices/open-device.ts';
import { OpenDevicePicker } from '../features/devices/open-device-picker.tsx';

// Open without sign-in: pick a model and a serial, then configure the device.
export const Route = createFileRoute('/device-details-old/')({
  loader: ({ context }) => loadedModels(context.runtime),
  component: OpenDevicePicker,
});
