import { createFileRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export const Route = createFileRoute('/_shell/user-details/$userid')({
  component: Screen,
});

function Screen() {
  const { userid } = Route.useParams();
  return <ScreenPlaceholder title="User details" detail={`User ${userid}`} />;
}
