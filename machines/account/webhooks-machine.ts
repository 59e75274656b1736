import { assign, fromPromise, setup } from 'xstate';
import type {
  CreatedWebhook,
  CreateWebhookRequest,
  Webhook,
  WebhookDelivery,
  WebhookEventType,
} from '../../contracts/webhooks.ts';

/** What the add dialog holds while a person fills it in. */
export interface WebhookForm {
  url: string;
  events: WebhookEventType[];
  /** Only this site's events; null: every site the person sees. */
  siteId: number | null;
}

/** A site the add dialog offers to limit a webhook to. */
export interface SiteChoice {
  id: number;
  name: string;
}

/** The sites the add dialog offers (the first of them, A–Z), and how many the person sees in all. */
export interface SiteChoices {
  sites: SiteChoice[];
  total: number;
}

/** The form a new webhook starts from: no address, the alarm events picked, every site. */
export const EMPTY_WEBHOOK_FORM: WebhookForm = {
  url: '',
  events: ['alarm.raised', 'alarm.cleared'],
  siteId: null,
};

export type WebhooksEvent =
  | { type: 'hooks.retry' }
  | { type: 'hooks.create' }
  | { type: 'hooks.edit'; form: Partial<WebhookForm> }
  | { type: 'hooks.submit' }
  | { type: 'hooks.cancel' }
  | { type: 'hooks.copy' }
  | { type: 'hooks.done' }
  | { type: 'hooks.delete'; id: string }
  | { type: 'hooks.confirm' }
  | { type: 'hooks.toggle'; id: string }
  | { type: 'hooks.open'; id: string }
  | { type: 'hooks.test' }
  | { type: 'hooks.resend'; deliveryId: number }
  | { type: 'hooks.refresh' }
  | { type: 'hooks.close' };

export interface WebhooksContext {
  webhooks: Webhook[];
  /** Why the list could not be read. */
  loadError: string | null;
  form: WebhookForm;
  /** The sites the add dialog offers; null while they are read. */
  siteChoices: SiteChoices | null;
  /** Why they could not be read (the dialog then offers every site only). */
  sitesError: string | null;
  /** What is wrong with the address or the events, shown at their fields. */
  urlError: string | null;
  eventsError: string | null;
  /** Why the service refused the last add, delete or switch, in its words. */
  error: string | null;
  /** The webhook just added, with its secret: held only until the dialog that shows it closes. */
  created: CreatedWebhook | null;
  /** The copy of the secret: done, or refused by the browser. */
  copy: 'copied' | 'refused' | null;
  /** The webhook whose deletion is being confirmed. */
  deleting: Webhook | null;
  /** The webhook whose deliveries are open, and them. */
  viewing: Webhook | null;
  deliveries: WebhookDelivery[];
  /** Why the deliveries could not be read, or a test or resend was refused. */
  logError: string | null;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The request of a filled-in form. */
export function requestOf(form: WebhookForm): CreateWebhookRequest {
  return { url: form.url.trim(), events: form.events, ...(form.siteId !== null && { siteId: form.siteId }) };
}

/** What is wrong with the address as typed, before it is sent; null when it may be sent. */
export function urlProblem(url: string): string | null {
  const text = url.trim();
  if (text === '') return 'Give the address to send events to.';
  if (!/^https?:\/\/[^\s/]+/i.test(text)) return 'The address starts with https:// (a full URL).';
  return null;
}

/** The add dialog as it opens: an empty form, its sites yet to be read, nothing refused. */
const NEW_DIALOG = {
  form: EMPTY_WEBHOOK_FORM,
  siteChoices: null,
  sitesError: null,
  urlError: null,
  eventsError: null,
  error: null,
} satisfies Partial<WebhooksContext>;

const listed = (context: WebhooksContext, id: string) => context.webhooks.find((hook) => hook.id === id);

/**
 * Account → Webhooks: the person's webhooks are read (loading, then the list or a failure with
 * "Try again"); one is added in a dialog (address, events picked, every site or one of the sites
 * the dialog reads as it opens), its signing secret shown once
 * with a copy button and forgotten when that dialog closes; one is switched off or on, deleted
 * after a confirmation, or its deliveries opened, where a test event is sent and a delivery sent
 * again. A failure keeps what was typed and says the service's words. Actors do the I/O: `list`,
 * `sites`, `create`, `update` (switch), `remove`, `deliveries`, `test`, `resend`, `copy`.
 */
export const webhooksMachine = setup({
  types: {
    context: {} as WebhooksContext,
    events: {} as WebhooksEvent,
  },
  actors: {
    list: fromPromise<Webhook[]>(async () => []),
    /** The sites a webhook may be limited to (the person's). */
    sites: fromPromise<SiteChoices>(async () => ({ sites: [], total: 0 })),
    create: fromPromise<CreatedWebhook, CreateWebhookRequest>(async () => {
      throw new Error('The create actor is not provided');
    }),
    /** Switches a webhook off (`disabled: true`) or on; answers it as it is now. */
    update: fromPromise<Webhook, { id: string; disabled: boolean }>(async () => {
      throw new Error('The update actor is not provided');
    }),
    /** Deletes `id`; answers it. */
    remove: fromPromise<string, { id: string }>(async ({ input }) => input.id),
    deliveries: fromPromise<WebhookDelivery[], { id: string }>(async () => []),
    test: fromPromise<void, { id: string }>(async () => undefined),
    resend: fromPromise<void, { deliveryId: number }>(async () => undefined),
    copy: fromPromise<void, { text: string }>(async () => undefined),
  },
  guards: {
    formIsIncomplete: ({ context }) =>
      urlProblem(context.form.url) !== null || context.form.events.length === 0,
    hookIsListed: ({ context, event }) =>
      'id' in event && typeof event.id === 'string' && listed(context, event.id) !== undefined,
    deliveryIsListed: ({ context, event }) =>
      event.type === 'hooks.resend' && context.deliveries.some((d) => d.id === event.deliveryId),
  },
}).createMachine({
  id: 'webhooks',
  context: {
    webhooks: [],
    loadError: null,
    ...NEW_DIALOG,
    created: null,
    copy: null,
    deleting: null,
    viewing: null,
    deliveries: [],
    logError: null,
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'list',
        onDone: {
          target: 'ready',
          actions: assign({ webhooks: ({ event }) => event.output, loadError: null }),
        },
        onError: { target: 'failed', actions: assign({ loadError: ({ event }) => messageOf(event.error) }) },
      },
    },
    failed: {
      on: { 'hooks.retry': 'loading' },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'hooks.create': {
              target: 'creating',
              actions: assign(NEW_DIALOG),
            },
            'hooks.delete': {
              guard: 'hookIsListed',
              target: 'confirmingDelete',
              actions: assign({
                deleting: ({ context, event }) => listed(context, event.id) ?? null,
                error: null,
              }),
            },
            'hooks.toggle': { guard: 'hookIsListed', target: 'switching', actions: assign({ error: null }) },
            'hooks.open': {
              guard: 'hookIsListed',
              target: 'log',
              actions: assign({ viewing: ({ context, event }) => listed(context, event.id) ?? null }),
            },
          },
        },
        creating: {
          initial: 'editing',
          // Read while the person types: until they arrive (or if they cannot), every site is offered.
          invoke: {
            src: 'sites',
            onDone: { actions: assign({ siteChoices: ({ event }) => event.output }) },
            onError: {
              actions: assign({
                siteChoices: { sites: [], total: 0 },
                sitesError: ({ event }) => messageOf(event.error),
              }),
            },
          },
          states: {
            editing: {
              on: {
                'hooks.edit': {
                  actions: assign({
                    form: ({ context, event }) => ({ ...context.form, ...event.form }),
                    urlError: ({ context, event }) =>
                      event.form.url === undefined ? context.urlError : null,
                    eventsError: ({ context, event }) =>
                      event.form.events === undefined ? context.eventsError : null,
                  }),
                },
                'hooks.submit': [
                  {
                    guard: 'formIsIncomplete',
                    actions: assign({
                      urlError: ({ context }) => urlProblem(context.form.url),
                      eventsError: ({ context }) =>
                        context.form.events.length === 0 ? 'Pick at least one event.' : null,
                    }),
                  },
                  { target: 'submitting', actions: assign({ error: null }) },
                ],
                'hooks.cancel': '#webhooks.ready.idle',
              },
            },
            submitting: {
              invoke: {
                src: 'create',
                input: ({ context }) => requestOf(context.form),
                onDone: {
                  target: '#webhooks.ready.showing',
                  actions: assign({
                    created: ({ event }) => event.output,
                    copy: null,
                    webhooks: ({ context, event }) => {
                      const { secret: _secret, ...hook } = event.output;
                      return [hook, ...context.webhooks];
                    },
                  }),
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
          initial: 'waiting',
          // Closing forgets the secret: it is never shown again.
          exit: assign({ created: null, copy: null }),
          on: { 'hooks.done': '#webhooks.ready.idle' },
          states: {
            waiting: {
              on: { 'hooks.copy': 'copying' },
            },
            copying: {
              invoke: {
                src: 'copy',
                input: ({ context }) => ({ text: context.created?.secret ?? '' }),
                onDone: { target: 'waiting', actions: assign({ copy: 'copied' }) },
                onError: { target: 'waiting', actions: assign({ copy: 'refused' }) },
              },
            },
          },
        },
        switching: {
          invoke: {
            src: 'update',
            input: ({ context, event }) => {
              const id = 'id' in event && typeof event.id === 'string' ? event.id : '';
              return { id, disabled: listed(context, id)?.disabledAt === null };
            },
            onDone: {
              target: 'idle',
              actions: assign({
                webhooks: ({ context, event }) =>
                  context.webhooks.map((hook) => (hook.id === event.output.id ? event.output : hook)),
              }),
            },
            onError: { target: 'idle', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
          },
        },
        confirmingDelete: {
          initial: 'asking',
          exit: assign({ deleting: null }),
          states: {
            asking: {
              on: {
                'hooks.confirm': 'deleting',
                'hooks.cancel': '#webhooks.ready.idle',
              },
            },
            deleting: {
              invoke: {
                src: 'remove',
                input: ({ context }) => ({ id: context.deleting?.id ?? '' }),
                onDone: {
                  target: '#webhooks.ready.idle',
                  actions: assign({
                    webhooks: ({ context, event }) =>
                      context.webhooks.filter((hook) => hook.id !== event.output),
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
        log: {
          initial: 'reading',
          exit: assign({ viewing: null, deliveries: [], logError: null }),
          on: { 'hooks.close': '#webhooks.ready.idle' },
          states: {
            reading: {
              invoke: {
                src: 'deliveries',
                input: ({ context }) => ({ id: context.viewing?.id ?? '' }),
                onDone: {
                  target: 'viewing',
                  actions: assign({ deliveries: ({ event }) => event.output, logError: null }),
                },
                onError: {
                  target: 'viewing',
                  actions: assign({ logError: ({ event }) => messageOf(event.error) }),
                },
              },
            },
            viewing: {
              on: {
                'hooks.test': { target: 'testing', actions: assign({ logError: null }) },
                'hooks.resend': {
                  guard: 'deliveryIsListed',
                  target: 'resending',
                  actions: assign({ logError: null }),
                },
                'hooks.refresh': 'reading',
              },
            },
            // A test or a resend is sent and its try recorded before it answers: the log is read again.
            testing: {
              invoke: {
                src: 'test',
                input: ({ context }) => ({ id: context.viewing?.id ?? '' }),
                onDone: 'reading',
                onError: {
                  target: 'viewing',
                  actions: assign({ logError: ({ event }) => messageOf(event.error) }),
                },
              },
            },
            resending: {
              invoke: {
                src: 'resend',
                input: ({ event }) => ({ deliveryId: event.type === 'hooks.resend' ? event.deliveryId : 0 }),
                onDone: 'reading',
                onError: {
                  target: 'viewing',
                  actions: assign({ logError: ({ event }) => messageOf(event.error) }),
                },
              },
            },
          },
        },
      },
    },
  },
});
