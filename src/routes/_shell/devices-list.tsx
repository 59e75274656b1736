import { createFileRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export const Route = createFileRoute('/_shell/devices-list')({
  component: () => <ScreenPlaceholder title="Devices" />,
});
