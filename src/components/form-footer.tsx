import { Alert, Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

export interface FormFooterProps {
  /** Why the last try failed, shown above the buttons; nothing while there is none. */
  error?: string | null | undefined;
  /** What did not happen: "The site was not saved". */
  errorTitle: string;
  /** The action's words on its button: "Save site". */
  submitLabel: ReactNode;
  /** While the action runs: its button spins and cannot be pressed again. */
  pending: boolean;
  onCancel: () => void;
  /** The action is not ready (a required step is missing). */
  submitDisabled?: boolean;
  /** Cancel cannot be pressed (while a request that cannot be taken back runs). */
  cancelDisabled?: boolean;
  /** A destructive action's colour ("red.8"). */
  submitColor?: string;
  /** For an action outside a `<form>`: pressed rather than submitted. */
  onSubmit?: () => void;
}

/**
 * The end of a form or dialog: why the last try failed, then Cancel and the action, on the right.
 * @example <FormFooter error={save.error} errorTitle="The site was not saved" submitLabel="Save site"
 *   pending={save.pending} onCancel={onDone} />
 */
export function FormFooter({
  error,
  errorTitle,
  submitLabel,
  pending,
  onCancel,
  submitDisabled,
  cancelDisabled,
  submitColor,
  onSubmit,
}: FormFooterProps) {
  return (
    <>
      {error ? (
        <Alert color="red" role="alert" title={errorTitle}>
          {error}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={cancelDisabled}>
          Cancel
        </Button>
        <Button
          {...(onSubmit ? { onClick: onSubmit } : { type: 'submit' as const })}
          color={submitColor}
          loading={pending}
          disabled={submitDisabled}
        >
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
