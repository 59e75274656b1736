import { assign, fromPromise, setup } from 'xstate';
import { type BleLink, type BleProblem, problemOf } from './ble-types.ts';

/** A device password has at most this many characters (specification §9). */
export const PASSWORD_MAX_LENGTH = 16;

export const PASSWORD_MESSAGES = {
  empty: 'Enter the device password.',
  tooLong: `The password has at most ${PASSWORD_MAX_LENGTH} characters.`,
  character: 'The password can only hold characters with codes up to 255 (no emoji or other scripts).',
  wrong: 'Wrong password. Check it and try again.',
} as const;

/** Why a password cannot be sent at all, or null when it can. Passwords are text, never numbers. */
export function passwordProblem(password: string): string | null {
  const characters = [...password];
  if (characters.length === 0) return PASSWORD_MESSAGES.empty;
  if (characters.length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  if (characters.some((c) => (c.codePointAt(0) ?? 0) > 255)) return PASSWORD_MESSAGES.character;
  return null;
}

export interface PasswordContext {
  needsPassword: boolean;
  link: BleLink | null;
  /** The password the device accepted in this session, to give it again after a reconnect. */
  accepted: string | null;
  attempted: string;
  message: string | null;
  problem: BleProblem | null;
}

export type PasswordEvent =
  | { type: 'password.submit'; password: string }
  /** A (new) connection is ready: the device is locked again until it hears the password. */
  | { type: 'password.connected'; link: BleLink }
  /** The connection ended: forget the link (and the password, when `forget`). */
  | { type: 'password.disconnected'; forget: boolean };

/**
 * The device password: a product with one asks for it before its form unlocks; a wrong one says so.
 * After a dropped link comes back, the password accepted before is given again on its own, so the
 * person is not asked twice for the same device.
 */
export const passwordMachine = setup({
  types: {
    context: {} as PasswordContext,
    events: {} as PasswordEvent,
    input: {} as { needsPassword: boolean },
  },
  actors: {
    checkPassword: fromPromise<boolean, { link: BleLink; password: string }>(async () => {
      throw new Error('The checkPassword actor is not provided');
    }),
  },
  guards: {
    needsPassword: ({ context }) => context.needsPassword,
    remembersPassword: ({ context }) => context.accepted !== null,
    sendable: (_, { password }: { password: string }) => passwordProblem(password) === null,
    hasLink: ({ context }) => context.link !== null,
  },
  actions: {
    /** The form may be changed and written now; the session that runs this machine listens. */
    reportOpen: () => undefined,
    /** The form is read-only again. */
    reportShut: () => undefined,
    rejectInput: assign((_, { password }: { password: string }) => ({ message: passwordProblem(password) })),
  },
}).createMachine({
  id: 'blePassword',
  context: ({ input }) => ({
    needsPassword: input.needsPassword,
    link: null,
    accepted: null,
    attempted: '',
    message: null,
    problem: null,
  }),
  initial: 'disconnected',
  on: {
    'password.disconnected': {
      target: '.disconnected',
      actions: assign({
        link: null,
        accepted: ({ context, event }) => (event.forget ? null : context.accepted),
        message: null,
      }),
    },
  },
  states: {
    disconnected: {
      on: {
        'password.connected': [
          {
            guard: 'needsPassword',
            target: 'connected',
            actions: assign({ link: ({ event }) => event.link }),
          },
          { target: 'open', actions: assign({ link: ({ event }) => event.link }) },
        ],
      },
    },
    connected: {
      always: [
        {
          guard: 'remembersPassword',
          target: 'checking',
          actions: assign({ attempted: ({ context }) => context.accepted ?? '' }),
        },
        { target: 'locked' },
      ],
    },
    /** The product has no password: the form is open as soon as the device is connected. */
    open: { entry: 'reportOpen', exit: 'reportShut' },
    locked: {
      on: {
        'password.submit': [
          {
            guard: { type: 'sendable', params: ({ event }) => ({ password: event.password }) },
            target: 'checking',
            actions: assign({ attempted: ({ event }) => event.password, message: null, problem: null }),
          },
          { actions: { type: 'rejectInput', params: ({ event }) => ({ password: event.password }) } },
        ],
      },
    },
    checking: {
      invoke: {
        src: 'checkPassword',
        input: ({ context }) => ({ link: context.link as BleLink, password: context.attempted }),
        onDone: [
          {
            guard: ({ event }) => event.output,
            target: 'unlocked',
            actions: assign({ accepted: ({ context }) => context.attempted, message: null }),
          },
          {
            target: 'locked',
            actions: assign({ accepted: null, message: PASSWORD_MESSAGES.wrong }),
          },
        ],
        onError: {
          target: 'locked',
          actions: assign({
            problem: ({ event }) => problemOf(event.error),
            message: ({ event }) => problemOf(event.error).message,
          }),
        },
      },
    },
    unlocked: { entry: 'reportOpen', exit: 'reportShut' },
  },
});
