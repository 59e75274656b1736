import type { SnapshotFrom } from 'xstate';
import type { passwordResetMachine } from './password-reset-machine.ts';

export type PasswordResetSnapshot = SnapshotFrom<typeof passwordResetMachine>;

/** Which form the reset screen shows: the e-mail form, the code form, or the success message. */
export function resetStep(s: PasswordResetSnapshot): 'email' | 'code' | 'done' {
  if (s.matches('done') || s.matches('signedIn')) return 'done';
  if (s.matches('codeSent') || s.matches('submitting') || s.matches('signingIn')) return 'code';
  return 'email';
}

/** True once the new password has also signed the person in. */
export const isSignedInAfterReset = (s: PasswordResetSnapshot): boolean => s.matches('signedIn');

/** The access code to fill in (a mail's link carried it), or null. */
export const resetCode = (s: PasswordResetSnapshot): string | null => s.context.code;

/** The last failure: the server's message or a generic one; null when none. */
export const resetError = (s: PasswordResetSnapshot): string | null => s.context.error;

/** True while a reset call runs. */
export const isResetBusy = (s: PasswordResetSnapshot): boolean =>
  s.matches('requesting') || s.matches('submitting') || s.matches('signingIn');

/** The e-mail the code was sent to, to prefill the code form. */
export const resetEmail = (s: PasswordResetSnapshot): string | null => s.context.email;
