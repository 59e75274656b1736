import { createFileRoute } from '@tanstack/react-router';
import { OpenScreen } from '../components/open-screen.tsx';
import { ScreenPlaceholder } from '../components/screen-placeholder.tsx';

export const Route = createFileRoute('/device-details-old/$deviceid')({
  component: DeviceDetailsOld,
});

function DeviceDetailsOld() {
  const { deviceid } = Route.useParams();
  return (
    <OpenScreen>
      <ScreenPlaceholder title="Device details" detail={`Device ${deviceid}`} />
    </OpenScreen>
  );
}
