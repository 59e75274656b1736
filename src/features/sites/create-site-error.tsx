import { PageError } from '../../components/page-state.tsx';

/** The create-site form could not load: an owner (who may not create sites) or the server's message. */
export function CreateSiteError({ error }: { error: unknown }) {
  return <PageError error={error} messages={{ forbidden: 'You cannot create sites' }} />;
}
