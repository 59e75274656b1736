import { useParams } from '@tanstack/react-router';
import { PageError } from '../../components/page-state.tsx';
import { siteErrorMessages } from './site-id.ts';

/** A site page that could not load: no access, no such site, or the server's message. */
export function SiteLoadError({ error }: { error: unknown }) {
  const { siteid } = useParams({ strict: false });
  return <PageError error={error} messages={siteErrorMessages(siteid ?? '')} />;
}
