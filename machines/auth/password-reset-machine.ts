import { assign, fromPromise, setup } from 'xstate';

export interface PasswordResetContext {
  email: string | null;
  /** A code to fill in: the one a mail's link carried. */
  code: string | null;
  error: string | null;
  /** The password just chosen, held only from the submit until the sign-in with it has ended. */
  newPassword: string | null;
}

export type PasswordResetEvent =
  | { type: 'reset.request'; email: string }
  /** "I have a code", or a mail's link: straight to the code step, with what is known filled in. */
  | { type: 'reset.haveCode'; email?: string; code?: string }
  | { type: 'reset.submit'; email: string; code: string; newPassword: string }
  | { type: 'reset.cancel' };

/** Shown when a reset call fails without a message from the server. */
export const GENERIC_RESET_ERROR = 'The password could not be reset. Please try again.';

const messageOf = (error: unknown): string =>
  error instanceof Error && error.message ? error.message : GENERIC_RESET_ERROR;

/**
 * "Forgot password" and "I have a code": ask for an access code by e-mail
 * (`POST /users/password-reset` → `codeSent`), or come with one (`reset.haveCode`, from the
 * sign-in screen or a mail's link), then choose a password with e-mail, code and new password
 * (`PUT /users/password`), and sign in with it (`signingIn` → `signedIn`; if that fails,
 * `done` asks the person to sign in). A failed call stays on its step with the server's message.
 * The code step is remembered while it is open (`rememberCodeStep`, e.g. in sessionStorage) so
 * that a reload, or a phone that dropped the page while the mail app was open, comes back to it
 * (the app sends `reset.haveCode` with the remembered e-mail at start). The actors
 * `requestCode`, `changePassword` and `signIn` do the I/O.
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
    signIn: fromPromise<void, { email: string; password: string }>(async () => {
      throw new Error('The signIn actor is not provided');
    }),
  },
  actions: {
    /** Injected by the app: keep (an e-mail) or drop (null) the open code step across reloads. */
    rememberCodeStep: (_, _params: { email: string | null }) => {},
    rememberEmail: assign(({ event }) => ({
      email: event.type === 'reset.request' || event.type === 'reset.submit' ? event.email.trim() : null,
      error: null,
    })),
    holdPassword: assign(({ event }) => ({
      newPassword: event.type === 'reset.submit' ? event.newPassword : null,
    })),
    dropPassword: assign({ newPassword: null }),
    takeCode: assign(({ context, event }) =>
      event.type === 'reset.haveCode'
        ? { email: event.email?.trim() || context.email, code: event.code?.trim() || null, error: null }
        : {},
    ),
    recordError: assign((_, { error }: { error: unknown }) => ({ error: messageOf(error) })),
    forget: assign({ email: null, code: null, error: null, newPassword: null }),
  },
}).createMachine({
  id: 'passwordReset',
  context: { email: null, code: null, error: null, newPassword: null },
  initial: 'email',
  on: {
    'reset.cancel': {
      target: '.email',
      actions: ['forget', { type: 'rememberCodeStep', params: { email: null } }],
    },
  },
  states: {
    email: {
      on: {
        'reset.request': { target: 'requesting', actions: 'rememberEmail' },
        'reset.haveCode': { target: 'codeSent', actions: 'takeCode' },
      },
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
      entry: { type: 'rememberCodeStep', params: ({ context }) => ({ email: context.email ?? '' }) },
      on: {
        'reset.submit': { target: 'submitting', actions: ['rememberEmail', 'holdPassword'] },
        // Ask for a new code from the code step (the first one expired or never arrived).
        'reset.request': { target: 'requesting', actions: 'rememberEmail' },
        // A mail's link opened while the step was open: take its e-mail and code.
        'reset.haveCode': { target: 'codeSent', reenter: true, actions: 'takeCode' },
      },
    },
    submitting: {
      invoke: {
        src: 'changePassword',
        input: ({ context, event }) =>
          event.type === 'reset.submit'
            ? { email: event.email.trim(), code: event.code.trim(), newPassword: event.newPassword }
            : { email: context.email ?? '', code: '', newPassword: '' },
        onDone: {
          target: 'signingIn',
          actions: { type: 'rememberCodeStep', params: { email: null } },
        },
        onError: {
          target: 'codeSent',
          actions: ['dropPassword', { type: 'recordError', params: ({ event }) => ({ error: event.error }) }],
        },
      },
    },
    signingIn: {
      exit: 'dropPassword',
      invoke: {
        src: 'signIn',
        input: ({ context }) => ({ email: context.email ?? '', password: context.newPassword ?? '' }),
        onDone: 'signedIn',
        onError: 'done',
      },
    },
    /** The password was changed and the person is signed in with it. */
    signedIn: {},
    /** The password was changed; signing in with it is left to the person. */
    done: {},
  },
});
