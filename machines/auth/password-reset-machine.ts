import { assign, fromPromise, setup } from 'xstate';

export interface PasswordResetContext {
  email: string | null;
  error: string | null;
}

export type PasswordResetEvent =
  | { type: 'reset.request'; email: string }
  | { type: 'reset.submit'; email: string; code: string; newPassword: string }
  | { type: 'reset.cancel' };

/** Shown when a reset call fails without a message from the server. */
export const GENERIC_RESET_ERROR = 'The password could not be reset. Please try again.';

const messageOf = (error: unknown): string =>
  error instanceof Error && error.message ? error.message : GENERIC_RESET_ERROR;

/**
 * "Forgot password": ask for an access code by e-mail (`POST /users/password-reset` → `codeSent`),
 * then set a new password with e-mail, code and new password (`PUT /users/password` → `done`).
 * A failed call stays on its step with the server's message. The actors `requestCode` and
 * `changePassword` do the I/O; the app provides them.
 */
export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
  },
  actors: {
    requestCode: fromPromise<void, { email: string }>(async () => {
      throw new Error('The requestCode actor is not provided');
    }),
    changePassword: fromPromise<void, { email: string; code: string; newPassword: string }>(async () => {
      throw new Error('The changePassword actor is not provided');
    }),
  },
  actions: {
    rememberEmail: assign(({ event }) => ({
      email: event.type === 'reset.request' || event.type === 'reset.submit' ? event.email.trim() : null,
      error: null,
    })),
    recordError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    forget: assign({ email: null, error: null }),
  },
}).createMachine({
  id: 'passwordReset',
  context: { email: null, error: null },
  initial: 'email',
  on: { 'reset.cancel': { target: '.email', actions: 'forget' } },
  states: {
    email: {
      on: { 'reset.request': { target: 'requesting', actions: 'rememberEmail' } },
    },
    requesting: {
      invoke: {
        src: 'requestCode',
        input: ({ context }) => ({ email: context.email ?? '' }),
        onDone: 'codeSent',
        onError: {
          target: 'email',
          actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    codeSent: {
      on: {
        'reset.submit': { target: 'submitting', actions: 'rememberEmail' },
        // Ask for a new code from the code step (the first one expired or never arrived).
        'reset.request': { target: 'requesting', actions: 'rememberEmail' },
      },
    },
    submitting: {
      invoke: {
        src: 'changePassword',
        input: ({ context, event }) =>
          event.type === 'reset.submit'
            ? { email: event.email.trim(), code: event.code.trim(), newPassword: event.newPassword }
            : { email: context.email ?? '', code: '', newPassword: '' },
        onDone: 'done',
        onError: {
          target: 'codeSent',
          actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    done: {},
  },
});
