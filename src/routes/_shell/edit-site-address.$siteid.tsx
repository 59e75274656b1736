import { createFileRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export const Route = createFileRoute('/_shell/edit-site-address/$siteid')({
  component: Screen,
});

function Screen() {
  const { siteid } = Route.useParams();
  return <ScreenPlaceholder title="Edit site address" detail={`Site ${siteid}`} />;
}
