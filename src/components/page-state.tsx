import { Alert, type AlertProps, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconLock, IconQuestionMark } from '@tabler/icons-react';
import { useRouter } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { errorMessage } from '../../contracts/error-message.ts';
import { ApiError } from '../api/api-error.ts';
import { ChunkLoadFailure } from './chunk-load-failure.tsx';
import { isChunkLoadError } from './is-chunk-load-error.ts';
import { ScreenHeader } from './screen-header.tsx';

/** Shown while a route's loader runs for longer than the router's pending delay. */
export function PageLoading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text>{label}</Text>
      </Group>
    </Center>
  );
}

/** A list or section with nothing in it, saying why and what to do. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap={4} align="center" py="xl" ta="center">
      <Text fw={600}>{title}</Text>
      {children ? <Text c="dimmed">{children}</Text> : null}
    </Stack>
  );
}

/** What to say for a failed load: 403 and 404 get the messages the caller names, anything else the server's. */
export interface ErrorMessages {
  forbidden?: string;
  notFound?: string;
}

/** The title a person sees for a failed load. */
export function errorTitle(error: unknown, messages: ErrorMessages = {}): string {
  if (error instanceof ApiError) {
    if (error.status === 403) return messages.forbidden ?? "You don't have access to this page";
    if (error.status === 404) return messages.notFound ?? 'Not found';
  }
  return 'This page could not be loaded';
}

/**
 * A page whose data could not be loaded: a clear title (no access, not found, or failed), the
 * server's message, and a retry that reruns the loaders. A screen whose code could not be
 * downloaded offers a reload instead.
 */
export function PageError({ error, messages }: { error: unknown; messages?: ErrorMessages }) {
  const router = useRouter();
  if (isChunkLoadError(error)) return <ChunkLoadFailure />;
  const status = error instanceof ApiError ? error.status : 0;
  const icon =
    status === 403 ? (
      <IconLock aria-hidden />
    ) : status === 404 ? (
      <IconQuestionMark aria-hidden />
    ) : (
      <IconAlertTriangle aria-hidden />
    );
  const detail = errorMessage(error);
  return (
    <Stack gap="md" maw={640}>
      <ScreenHeader title={errorTitle(error, messages)} />
      <Alert color={status === 403 || status === 404 ? 'yellow' : 'red'} icon={icon} role="alert">
        {detail}
      </Alert>
      {status === 403 || status === 404 ? null : (
        <Group>
          <Button variant="light" onClick={() => void router.invalidate()}>
            Try again
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/**
 * A read that failed in a part of a screen (a card, a dialog): why, in a red alert under its
 * title, and "Try again", which the caller answers by reading again.
 */
export function LoadFailed({
  title,
  error,
  onRetry,
  styles,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  styles?: AlertProps['styles'];
}) {
  return (
    <Stack gap="sm">
      <Alert color="red" role="alert" title={title} {...(styles ? { styles } : {})}>
        {errorMessage(error)}
      </Alert>
      <Group>
        <Button variant="default" onClick={onRetry}>
          Try again
        </Button>
      </Group>
    </Stack>
  );
}
