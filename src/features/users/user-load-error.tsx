import { useParams } from '@tanstack/react-router';
import { PageError } from '../../components/page-state.tsx';

/** A user page that could not load: not visible, unknown, or the server's message. */
export function UserLoadError({ error }: { error: unknown }) {
  const { userid } = useParams({ strict: false });
  return (
    <PageError
      error={error}
      messages={{ forbidden: "You don't have access to this user", notFound: `No user ${userid ?? ''}` }}
    />
  );
}
