import { createFileRoute } from '@tanstack/react-router';
import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export const Route = createFileRoute('/_shell/site-details/$siteid')({
  component: Screen,
});

function Screen() {
  const { siteid } = Route.useParams();
  return <ScreenPlaceholder title="Site details" detail={`Site ${siteid}`} />;
}
