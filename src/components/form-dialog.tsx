import { Modal, Stack } from '@mantine/core';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { FormFooter } from './form-footer.tsx';

/** The fields a dialog opens on when none is marked `data-autofocus`: the first one that takes input. */
const FIELDS =
  'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled), button:not(:disabled)';

export interface FormDialogProps {
  /** The dialog's title, which also names the dialog and its form for screen readers. */
  title: string;
  /**
   * Whether the dialog shows. A dialog mounted only while it is open (a fresh form each time) leaves
   * it out; focus goes back to what opened it when it is unmounted.
   */
  opened?: boolean;
  /** Escape, the close button and Cancel ask for this; none of them does while `busy`. */
  onClose: () => void;
  /** The form was submitted (Enter in a field, or the action's button); validation is the caller's. */
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** The save runs: the action spins and the dialog cannot be closed. */
  busy: boolean;
  /** Why the last save failed, shown above the buttons; nothing while there is none. */
  error?: string | null | undefined;
  /** What did not happen: "The key was not created". */
  errorTitle: string;
  /** The action's words on its button: "Create key". */
  submitLabel: ReactNode;
  /** The action is not ready (a step is missing): read it from the machine's `can()`. */
  submitDisabled?: boolean;
  /** A wider dialog for a form with many fields ("lg"). */
  size?: string;
  /** The fields. The one marked `data-autofocus`, or else the first, takes focus when it opens. */
  children: ReactNode;
}

/**
 * Gives focus back to what opened a dialog that is mounted open and unmounted on closing (the
 * dialog library returns it only when `opened` changes): unless focus has moved elsewhere since.
 */
function useFocusBackOnUnmount(mountedOpen: boolean) {
  const [opener] = useState(() =>
    mountedOpen && typeof document !== 'undefined' ? document.activeElement : null,
  );
  useEffect(
    () => () => {
      if (!(opener instanceof HTMLElement)) return;
      // After the dialog's nodes are gone, so that focus leaving them has settled on the page.
      window.setTimeout(() => {
        const now = document.activeElement;
        if (opener.isConnected && (now === null || now === document.body))
          opener.focus({ preventScroll: true });
      });
    },
    [opener],
  );
}

/** Whether an element of the form is drawn (a file field's own input is not: its button is). */
function shown(element: Element, form: HTMLFormElement): boolean {
  for (let at: Element | null = element; at && at !== form; at = at.parentElement) {
    const style = getComputedStyle(at);
    if (style.display === 'none' || style.visibility === 'hidden') return false;
  }
  return true;
}

/** Marks the first field for the dialog's focus trap when the caller marked none. */
function focusFirstField(form: HTMLFormElement | null) {
  if (!form || form.querySelector('[data-autofocus]')) return;
  const first = Array.from(form.querySelectorAll(FIELDS)).find((field) => shown(field, form));
  first?.setAttribute('data-autofocus', '');
}

/**
 * A dialog that is one form: its title, the fields, why the last save failed, then Cancel and the
 * action. The browser's own validation is off (the fields show the app's messages).
 * @example <FormDialog title="Create API key" opened={open} onClose={cancel} onSubmit={submit}
 *   busy={submitting} error={error} errorTitle="The key was not created" submitLabel="Create key">
 *   <TextInput label="Name" … />
 * </FormDialog>
 */
export function FormDialog({
  title,
  opened = true,
  onClose,
  onSubmit,
  busy,
  error,
  errorTitle,
  submitLabel,
  submitDisabled,
  size,
  children,
}: FormDialogProps) {
  const id = useId();
  useFocusBackOnUnmount(opened);
  const close = () => {
    if (!busy) onClose();
  };
  return (
    <Modal
      id={id}
      opened={opened}
      onClose={close}
      title={title}
      size={size}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form ref={focusFirstField} onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
        <Stack gap="sm">
          {children}
          <FormFooter
            error={error}
            errorTitle={errorTitle}
            submitLabel={submitLabel}
            pending={busy}
            onCancel={close}
            cancelDisabled={busy}
            submitDisabled={submitDisabled}
          />
        </Stack>
      </form>
    </Modal>
  );
}
