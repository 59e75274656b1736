import { PageError } from '../../components/page-state.tsx';

/** Site Manager could not load: not company staff, or the server's message. */
export function SiteManagerError({ error }: { error: unknown }) {
  return <PageError error={error} messages={{ forbidden: "You don't have access to Site Manager" }} />;
}
