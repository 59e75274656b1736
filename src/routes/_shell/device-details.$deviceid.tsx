import { createFileRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export const Route = createFileRoute('/_shell/device-details/$deviceid')({
  component: Screen,
});

function Screen() {
  const { deviceid } = Route.useParams();
  return <ScreenPlaceholder title="Device details" detail={`Device ${deviceid}`} />;
}
