import { useParams, useSearch } from '@tanstack/react-router';
import { PageError } from '../../components/page-state.tsx';

/** A device that cannot be shown: not visible, unknown, or the server's message. */
export function DeviceLoadError({ error }: { error: unknown }) {
  const { deviceid } = useParams({ strict: false });
  const { serial } = useSearch({ strict: false }) as { serial?: string };
  const name = serial ?? deviceid ?? '';
  return (
    <PageError
      error={error}
      messages={{ forbidden: "You don't have access to this device", notFound: `No device ${name}` }}
    />
  );
}
