import { assign, fromPromise, setup } from 'xstate';
import type { ApiKey, ApiKeyScope, CreateApiKeyRequest, CreatedApiKey } from '../../contracts/api-keys.ts';

/** How long a new key lives: one of the service's lifetimes, or never expiring (with a warning). */
export type KeyExpiry = '30' | '90' | '365' | 'never';

/** What the create dialog holds while a person fills it in. */
export interface KeyForm {
  name: string;
  scope: ApiKeyScope;
  expiry: KeyExpiry;
}

/** The form a new key starts from: read-only, 90 days. */
export const EMPTY_KEY_FORM: KeyForm = { name: '', scope: 'read', expiry: '90' };

export type ApiKeysEvent =
  | { type: 'keys.retry' }
  | { type: 'keys.create' }
  | { type: 'keys.edit'; form: Partial<KeyForm> }
  | { type: 'keys.submit' }
  | { type: 'keys.cancel' }
  | { type: 'keys.copy' }
  | { type: 'keys.done' }
  | { type: 'keys.revoke'; id: string }
  | { type: 'keys.confirm' };

export interface ApiKeysContext {
  keys: ApiKey[];
  /** Why the list could not be read. */
  loadError: string | null;
  form: KeyForm;
  /** What is wrong with the name, shown at the field. */
  nameError: string | null;
  /** Why the service refused the last create or revoke, in its words. */
  error: string | null;
  /** The key just made, with its text: held only until the dialog that shows it closes. */
  created: CreatedApiKey | null;
  /** The copy of the key's text: done, or refused by the browser. */
  copy: 'copied' | 'refused' | null;
  /** The key whose revocation is being confirmed. */
  revoking: ApiKey | null;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The request of a filled-in form. */
export function requestOf(form: KeyForm): CreateApiKeyRequest {
  return {
    name: form.name.trim(),
    scope: form.scope,
    expiresInDays: form.expiry === 'never' ? null : (Number(form.expiry) as 30 | 90 | 365),
  };
}

/**
 * Account → API keys: the person's keys are read (loading, then the list or a failure with
 * "Try again"); a key is made in a dialog (name, read or write, expiry), its text shown once
 * with a copy button and forgotten when that dialog closes; a key is revoked after a
 * confirmation. A failure keeps the dialog open with the service's message and what was typed.
 * Actors do the I/O: `list`, `create`, `revoke`, `copy` (to the clipboard).
 */
export const apiKeysMachine = setup({
  types: {
    context: {} as ApiKeysContext,
    events: {} as ApiKeysEvent,
  },
  actors: {
    list: fromPromise<ApiKey[]>(async () => []),
    create: fromPromise<CreatedApiKey, CreateApiKeyRequest>(async () => {
      throw new Error('The create actor is not provided');
    }),
    /** Revokes `id`; answers it. */
    revoke: fromPromise<string, { id: string }>(async ({ input }) => input.id),
    copy: fromPromise<void, { text: string }>(async () => undefined),
  },
  guards: {
    nameIsBlank: ({ context }) => context.form.name.trim() === '',
    keyIsListed: ({ context, event }) =>
      event.type === 'keys.revoke' && context.keys.some((key) => key.id === event.id),
  },
}).createMachine({
  id: 'apiKeys',
  context: {
    keys: [],
    loadError: null,
    form: EMPTY_KEY_FORM,
    nameError: null,
    error: null,
    created: null,
    copy: null,
    revoking: null,
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'list',
        onDone: { target: 'ready', actions: assign({ keys: ({ event }) => event.output, loadError: null }) },
        onError: { target: 'failed', actions: assign({ loadError: ({ event }) => messageOf(event.error) }) },
      },
    },
    failed: {
      on: { 'keys.retry': 'loading' },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'keys.create': {
              target: 'creating',
              actions: assign({ form: EMPTY_KEY_FORM, nameError: null, error: null }),
            },
            'keys.revoke': {
              guard: 'keyIsListed',
              target: 'confirmingRevoke',
              actions: assign({
                revoking: ({ context, event }) => context.keys.find((key) => key.id === event.id) ?? null,
                error: null,
              }),
            },
          },
        },
        creating: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'keys.edit': {
                  actions: assign({
                    form: ({ context, event }) => ({ ...context.form, ...event.form }),
                    nameError: null,
                  }),
                },
                'keys.submit': [
                  { guard: 'nameIsBlank', actions: assign({ nameError: 'Give the key a name.' }) },
                  { target: 'submitting', actions: assign({ error: null }) },
                ],
                'keys.cancel': '#apiKeys.ready.idle',
              },
            },
            submitting: {
              invoke: {
                src: 'create',
                input: ({ context }) => requestOf(context.form),
                onDone: {
                  target: '#apiKeys.ready.showing',
                  actions: assign({ created: ({ event }) => event.output, copy: null }),
                },
                onError: {
                  target: 'editing',
                  actions: assign({ error: ({ event }) => messageOf(event.error) }),
                },
              },
            },
          },
        },
        showing: {
          initial: 'refreshing',
          // Closing forgets the key's text: it is never shown again.
          exit: assign({ created: null, copy: null }),
          on: { 'keys.done': '#apiKeys.ready.idle' },
          states: {
            // The list is read again behind the dialog; if that fails, the old list stays.
            refreshing: {
              invoke: {
                src: 'list',
                onDone: { target: 'waiting', actions: assign({ keys: ({ event }) => event.output }) },
                onError: 'waiting',
              },
            },
            waiting: {
              on: { 'keys.copy': 'copying' },
            },
            copying: {
              invoke: {
                src: 'copy',
                input: ({ context }) => ({ text: context.created?.key ?? '' }),
                onDone: { target: 'waiting', actions: assign({ copy: 'copied' }) },
                onError: { target: 'waiting', actions: assign({ copy: 'refused' }) },
              },
            },
          },
        },
        confirmingRevoke: {
          initial: 'asking',
          exit: assign({ revoking: null }),
          states: {
            asking: {
              on: {
                'keys.confirm': 'revoking',
                'keys.cancel': '#apiKeys.ready.idle',
              },
            },
            revoking: {
              invoke: {
                src: 'revoke',
                input: ({ context }) => ({ id: context.revoking?.id ?? '' }),
                onDone: {
                  target: '#apiKeys.ready.idle',
                  actions: assign({
                    keys: ({ context, event }) => context.keys.filter((key) => key.id !== event.output),
                  }),
                },
                onError: {
                  target: 'asking',
                  actions: assign({ error: ({ event }) => messageOf(event.error) }),
                },
              },
            },
          },
        },
      },
    },
  },
});
