import { expect } from 'vitest';
import { createActor, createMachine, waitFor } from 'xstate';
import type {
  CreatedWebhook,
  CreateWebhookRequest,
  Webhook,
  WebhookDelivery,
} from '../../../contracts/webhooks.ts';
import { type SiteChoices, webhooksMachine } from '../../../machines/account/webhooks-machine.ts';
import { controlledActor } from '../fakes.ts';
import { recordCoverage } from '../paths/coverage-recorder.ts';
import { defineModel, type ModelDriver } from '../paths/model-entry.ts';

/**
 * Abstract model of Account → Webhooks: the list, the add dialog, the secret shown once,
 * switching off, deleting, and the delivery log with a test and a resend. A tree: each of the real
 * machine's transitions ends one path, so the paths stay few.
 */
const model = createMachine({
  id: 'webhooksModel',
  initial: 'loading',
  states: {
    loading: { on: { 'service.lists': 'listed', 'service.listFails': 'failed' } },
    failed: { on: { 'page.retry': 'reloading' } },
    reloading: { on: { 'service.lists': 'listedAfterRetry' } },
    listedAfterRetry: {},
    listed: {
      on: {
        'dialog.open': 'editing',
        'hook.delete': 'confirming',
        'hook.switch': 'switching',
        'hook.open': 'reading',
      },
    },
    editing: {
      on: {
        'form.sendEmpty': 'incomplete',
        'form.fill': 'filled',
        'dialog.cancel': 'addCancelled',
        'sites.arrive': 'sitesListed',
        'sites.fail': 'sitesFailed',
      },
    },
    sitesListed: { on: { 'form.fillForSite': 'filledForSite' } },
    sitesFailed: {},
    filledForSite: { on: { 'form.send': 'addingForSite' } },
    addingForSite: {},
    incomplete: {},
    addCancelled: {},
    filled: { on: { 'form.send': 'adding' } },
    adding: { on: { 'service.adds': 'shown', 'service.refuses': 'refused' } },
    refused: {},
    shown: { on: { 'secret.copy': 'copying', 'dialog.done': 'shownClosed' } },
    shownClosed: {},
    copying: { on: { 'clipboard.accepts': 'copied', 'clipboard.refuses': 'copyRefused' } },
    copied: {},
    copyRefused: {},
    switching: { on: { 'service.switches': 'switchedOff', 'service.switchFails': 'switchRefused' } },
    switchedOff: {},
    switchRefused: {},
    confirming: { on: { 'delete.confirm': 'deleting', 'delete.cancel': 'deleteCancelled' } },
    deleteCancelled: {},
    deleting: { on: { 'service.deletes': 'deleted', 'service.deleteFails': 'deleteRefused' } },
    deleteRefused: {},
    deleted: {},
    reading: { on: { 'log.reads': 'viewing', 'log.readFails': 'logFailed' } },
    logFailed: {},
    viewing: {
      on: {
        'log.test': 'testing',
        'delivery.resend': 'resending',
        'log.refresh': 'rereading',
        'log.close': 'logClosed',
      },
    },
    rereading: {},
    logClosed: {},
    testing: { on: { 'service.tests': 'testedReading', 'service.testFails': 'testRefused' } },
    testedReading: {},
    testRefused: {},
    resending: { on: { 'service.resends': 'resentReading', 'service.resendFails': 'resendRefused' } },
    resentReading: {},
    resendRefused: {},
  },
});

const hookOf = (id: string, url: string): Webhook => ({
  id,
  url,
  events: ['alarm.raised'],
  siteId: null,
  siteName: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  disabledAt: null,
  disabledReason: null,
  failingSince: null,
});
const LISTED = [
  hookOf('0b4ad0e4-5b7e-4c55-9d0c-3f8f2a1c0101', 'https://crm.example.com/hooks'),
  hookOf('0b4ad0e4-5b7e-4c55-9d0c-3f8f2a1c0102', 'https://tickets.example.com/in'),
];
const SITES: SiteChoices = {
  sites: [
    { id: 5, name: 'Dairy farm' },
    { id: 9, name: 'Riverside school' },
  ],
  total: 2,
};
const SECRET = `whsec_${'Q'.repeat(43)}=`;
const NEW_HOOK = hookOf('0b4ad0e4-5b7e-4c55-9d0c-3f8f2a1c0103', 'https://energy.example.com/events');
const CREATED: CreatedWebhook = { ...NEW_HOOK, events: ['device.installed'], secret: SECRET };
const DELIVERIES: WebhookDelivery[] = [
  {
    id: 7,
    webhookId: 'msg_abc',
    type: 'alarm.raised',
    status: 'failed',
    createdAt: '2026-11-01T10:00:00.000Z',
    nextAttemptAt: null,
    attempts: [
      { at: '2026-11-01T10:00:01.000Z', status: 500, durationMs: 12, response: 'down', error: null },
    ],
  },
];

/** Events and state checks that run one path against the real machine, its calls answered by hand. */
function driver(): ModelDriver {
  const list = controlledActor<Webhook[], unknown>();
  const sites = controlledActor<SiteChoices, unknown>();
  const create = controlledActor<CreatedWebhook, CreateWebhookRequest>();
  const update = controlledActor<Webhook, { id: string; disabled: boolean }>();
  const remove = controlledActor<string, { id: string }>();
  const deliveries = controlledActor<WebhookDelivery[], { id: string }>();
  const test = controlledActor<void, { id: string }>();
  const resend = controlledActor<void, { deliveryId: number }>();
  const copy = controlledActor<void, { text: string }>();
  const actor = createActor(
    webhooksMachine.provide({
      actors: {
        list: list.logic,
        sites: sites.logic,
        create: create.logic,
        update: update.logic,
        remove: remove.logic,
        deliveries: deliveries.logic,
        test: test.logic,
        resend: resend.logic,
        copy: copy.logic,
      },
    }),
    { inspect: recordCoverage },
  ).start();
  const snap = () => actor.getSnapshot();
  const first = LISTED[0] as Webhook;
  const sendAndWait = async (event: Parameters<typeof actor.send>[0], calls: { calls: unknown[] }) => {
    const before = calls.calls.length;
    actor.send(event);
    await waitFor(actor, () => calls.calls.length === before + 1);
  };
  const idle = (webhooks: Webhook[] = LISTED) => {
    expect(snap().matches({ ready: 'idle' })).toBe(true);
    expect(snap().context).toMatchObject({
      webhooks,
      created: null,
      copy: null,
      deleting: null,
      viewing: null,
    });
  };
  const inDialog = (state: 'editing' | 'submitting') =>
    expect(snap().matches({ ready: { creating: state } })).toBe(true);
  const inLog = (state: 'reading' | 'viewing' | 'testing' | 'resending') => {
    expect(snap().matches({ ready: { log: state } })).toBe(true);
    expect(snap().context.viewing).toEqual(first);
  };
  return {
    events: {
      'service.lists': () => list.last().resolve(LISTED),
      'service.listFails': () => list.last().reject(new Error('Failed to fetch')),
      'page.retry': () => sendAndWait({ type: 'hooks.retry' }, list),
      'dialog.open': () => actor.send({ type: 'hooks.create' }),
      'form.sendEmpty': () => {
        actor.send({ type: 'hooks.edit', form: { url: '  ', events: [] } });
        actor.send({ type: 'hooks.submit' });
      },
      'form.fill': () =>
        actor.send({
          type: 'hooks.edit',
          form: { url: ' https://energy.example.com/events ', events: ['device.installed'] },
        }),
      'form.send': () => sendAndWait({ type: 'hooks.submit' }, create),
      'sites.arrive': () => sites.last().resolve(SITES),
      'sites.fail': () => sites.last().reject(new Error('Failed to fetch')),
      'form.fillForSite': () =>
        actor.send({
          type: 'hooks.edit',
          form: { url: 'https://energy.example.com/events', events: ['alarm.raised'], siteId: 9 },
        }),
      'dialog.cancel': () => actor.send({ type: 'hooks.cancel' }),
      'service.adds': () => create.last().resolve(CREATED),
      'service.refuses': () => create.last().reject(new Error('url: url must be an https:// address')),
      'dialog.done': () => actor.send({ type: 'hooks.done' }),
      'secret.copy': () => sendAndWait({ type: 'hooks.copy' }, copy),
      'clipboard.accepts': () => copy.last().resolve(),
      'clipboard.refuses': () => copy.last().reject(new Error('Write permission denied.')),
      'hook.switch': () => sendAndWait({ type: 'hooks.toggle', id: first.id }, update),
      'service.switches': () =>
        update.last().resolve({
          ...first,
          disabledAt: '2026-11-02T10:00:00.000Z',
          disabledReason: 'Switched off by its owner',
        }),
      'service.switchFails': () => update.last().reject(new Error('Webhook not found')),
      'hook.delete': () => actor.send({ type: 'hooks.delete', id: first.id }),
      'delete.confirm': () => sendAndWait({ type: 'hooks.confirm' }, remove),
      'delete.cancel': () => actor.send({ type: 'hooks.cancel' }),
      'service.deletes': () => remove.last().resolve(remove.last().input.id),
      'service.deleteFails': () => remove.last().reject(new Error('Webhook not found')),
      'hook.open': () => sendAndWait({ type: 'hooks.open', id: first.id }, deliveries),
      'log.reads': () => deliveries.last().resolve(DELIVERIES),
      'log.readFails': () => deliveries.last().reject(new Error('Failed to fetch')),
      'log.test': () => sendAndWait({ type: 'hooks.test' }, test),
      'log.refresh': () => sendAndWait({ type: 'hooks.refresh' }, deliveries),
      'log.close': () => actor.send({ type: 'hooks.close' }),
      'delivery.resend': () => sendAndWait({ type: 'hooks.resend', deliveryId: 7 }, resend),
      'service.tests': async () => {
        const before = deliveries.calls.length;
        await test.last().resolve();
        await waitFor(actor, () => deliveries.calls.length === before + 1);
      },
      'service.testFails': () => test.last().reject(new Error('Webhook not found')),
      'service.resends': async () => {
        const before = deliveries.calls.length;
        await resend.last().resolve();
        await waitFor(actor, () => deliveries.calls.length === before + 1);
      },
      'service.resendFails': () =>
        resend.last().reject(new Error('This delivery is being sent at this moment')),
    },
    states: {
      loading: () => {
        expect(snap().value).toBe('loading');
        expect(list.pending()).toHaveLength(1);
      },
      failed: () => {
        expect(snap().value).toBe('failed');
        expect(snap().context.loadError).toBe('Failed to fetch');
        expect(snap().can({ type: 'hooks.create' })).toBe(false);
      },
      reloading: () => {
        expect(snap().value).toBe('loading');
        expect(list.calls).toHaveLength(2);
      },
      listed: () => idle(),
      listedAfterRetry: () => idle(),
      editing: () => {
        inDialog('editing');
        expect(snap().context).toMatchObject({
          form: { url: '', events: ['alarm.raised', 'alarm.cleared'], siteId: null },
          siteChoices: null,
          urlError: null,
        });
        expect(sites.pending()).toHaveLength(1);
      },
      sitesListed: () => {
        inDialog('editing');
        expect(snap().context.siteChoices).toEqual(SITES);
        expect(snap().context.sitesError).toBeNull();
      },
      sitesFailed: () => {
        inDialog('editing');
        // Every site is all the dialog can offer; the form stays open to send.
        expect(snap().context.siteChoices).toEqual({ sites: [], total: 0 });
        expect(snap().context.sitesError).toBe('Failed to fetch');
        expect(snap().can({ type: 'hooks.submit' })).toBe(true);
      },
      filledForSite: () => {
        inDialog('editing');
        expect(snap().context.form.siteId).toBe(9);
      },
      addingForSite: () => {
        inDialog('submitting');
        expect(create.last().input).toEqual({
          url: 'https://energy.example.com/events',
          events: ['alarm.raised'],
          siteId: 9,
        });
      },
      incomplete: () => {
        inDialog('editing');
        expect(snap().context.urlError).toBe('Give the address to send events to.');
        expect(snap().context.eventsError).toBe('Pick at least one event.');
        expect(create.pending()).toHaveLength(0);
      },
      addCancelled: () => {
        idle();
        expect(create.calls).toHaveLength(0);
      },
      filled: () => {
        inDialog('editing');
        expect(snap().context.form).toEqual({
          url: ' https://energy.example.com/events ',
          events: ['device.installed'],
          siteId: null,
        });
      },
      adding: () => {
        inDialog('submitting');
        expect(create.last().input).toEqual({
          url: 'https://energy.example.com/events',
          events: ['device.installed'],
        });
      },
      refused: () => {
        inDialog('editing');
        expect(snap().context.error).toBe('url: url must be an https:// address');
        expect(snap().context.form.url).toBe(' https://energy.example.com/events ');
      },
      shown: () => {
        expect(snap().matches({ ready: { showing: 'waiting' } })).toBe(true);
        expect(snap().context.created?.secret).toBe(SECRET);
        // Listed at once, without its secret.
        expect(snap().context.webhooks[0]?.id).toBe(NEW_HOOK.id);
        expect(JSON.stringify(snap().context.webhooks)).not.toContain(SECRET);
      },
      shownClosed: () => {
        expect(snap().matches({ ready: 'idle' })).toBe(true);
        // Nothing of the secret is kept once its dialog is closed.
        expect(JSON.stringify(snap().context)).not.toContain(SECRET);
      },
      copying: () => {
        expect(snap().matches({ ready: { showing: 'copying' } })).toBe(true);
        expect(copy.last().input).toEqual({ text: SECRET });
      },
      copied: () => {
        expect(snap().matches({ ready: { showing: 'waiting' } })).toBe(true);
        expect(snap().context.copy).toBe('copied');
      },
      copyRefused: () => {
        expect(snap().matches({ ready: { showing: 'waiting' } })).toBe(true);
        expect(snap().context.copy).toBe('refused');
      },
      switching: () => {
        expect(snap().matches({ ready: 'switching' })).toBe(true);
        expect(update.last().input).toEqual({ id: first.id, disabled: true });
      },
      switchedOff: () => {
        expect(snap().matches({ ready: 'idle' })).toBe(true);
        expect(snap().context.webhooks[0]?.disabledAt).toBe('2026-11-02T10:00:00.000Z');
      },
      switchRefused: () => {
        expect(snap().matches({ ready: 'idle' })).toBe(true);
        expect(snap().context.error).toBe('Webhook not found');
        expect(snap().context.webhooks).toEqual(LISTED);
      },
      confirming: () => {
        expect(snap().matches({ ready: { confirmingDelete: 'asking' } })).toBe(true);
        expect(snap().context.deleting).toEqual(first);
      },
      deleteCancelled: () => {
        idle();
        expect(remove.calls).toHaveLength(0);
      },
      deleting: () => {
        expect(snap().matches({ ready: { confirmingDelete: 'deleting' } })).toBe(true);
        expect(remove.last().input).toEqual({ id: first.id });
      },
      deleteRefused: () => {
        expect(snap().matches({ ready: { confirmingDelete: 'asking' } })).toBe(true);
        expect(snap().context.error).toBe('Webhook not found');
      },
      deleted: () => idle(LISTED.slice(1)),
      reading: () => {
        inLog('reading');
        expect(deliveries.last().input).toEqual({ id: first.id });
      },
      logFailed: () => {
        inLog('viewing');
        expect(snap().context.logError).toBe('Failed to fetch');
      },
      viewing: () => {
        inLog('viewing');
        expect(snap().context.deliveries).toEqual(DELIVERIES);
        expect(snap().can({ type: 'hooks.resend', deliveryId: 8 })).toBe(false);
      },
      rereading: () => {
        inLog('reading');
        expect(deliveries.calls).toHaveLength(2);
      },
      logClosed: () => idle(),
      testing: () => {
        inLog('testing');
        expect(test.last().input).toEqual({ id: first.id });
      },
      testedReading: () => {
        inLog('reading');
        expect(deliveries.calls).toHaveLength(2);
      },
      testRefused: () => {
        inLog('viewing');
        expect(snap().context.logError).toBe('Webhook not found');
      },
      resending: () => {
        inLog('resending');
        expect(resend.last().input).toEqual({ deliveryId: 7 });
      },
      resentReading: () => {
        inLog('reading');
        expect(deliveries.calls).toHaveLength(2);
      },
      resendRefused: () => {
        inLog('viewing');
        expect(snap().context.logError).toBe('This delivery is being sent at this moment');
      },
    },
  };
}

export default defineModel({
  name: 'webhooks',
  title: 'Account → Webhooks',
  source: 'machines/account/webhooks-machine.ts',
  about:
    "A person's webhooks are read; one is added in a dialog (an address and events are required) and its signing secret shown once with a copy button; one is switched off, deleted after a confirmation, or its delivery log opened, where a test event is sent and a delivery sent again.",
  machine: webhooksMachine,
  model,
  driver,
  events: {
    'service.lists': 'The configuration service answers the list of webhooks (two).',
    'service.listFails': 'The list cannot be read (the network is down).',
    'page.retry': 'The person presses "Try again".',
    'dialog.open': 'The person presses "Add webhook".',
    'form.sendEmpty': 'The person sends the form with a blank address and no event picked.',
    'form.fill': 'The person types an address and picks one event.',
    'form.send': 'The person presses "Add webhook" in the dialog.',
    'sites.arrive': "The person's sites are read (two).",
    'sites.fail': "The person's sites cannot be read.",
    'form.fillForSite': 'The person types an address, picks one event and one site.',
    'dialog.cancel': 'The person closes the dialog without sending.',
    'service.adds': 'The service adds the webhook and answers its secret.',
    'service.refuses': 'The service refuses the address with its message.',
    'dialog.done': 'The person closes the dialog that shows the secret.',
    'secret.copy': 'The person presses "Copy secret".',
    'clipboard.accepts': 'The browser puts the secret on the clipboard.',
    'clipboard.refuses': 'The browser refuses the clipboard.',
    'hook.switch': 'The person presses "Switch off" on the first webhook.',
    'service.switches': 'The service switches it off.',
    'service.switchFails': 'The service refuses (it is gone).',
    'hook.delete': 'The person presses "Delete" on the first webhook.',
    'delete.confirm': 'The person confirms the deletion.',
    'delete.cancel': 'The person cancels the deletion.',
    'service.deletes': 'The service deletes it.',
    'service.deleteFails': 'The service refuses (it is gone).',
    'hook.open': 'The person presses "Deliveries" on the first webhook.',
    'log.reads': 'The service answers its deliveries (one failed).',
    'log.readFails': 'The deliveries cannot be read.',
    'log.test': 'The person presses "Send test event".',
    'log.refresh': 'The person presses "Refresh".',
    'log.close': 'The person closes the delivery log.',
    'delivery.resend': 'The person presses "Send again" on the failed delivery.',
    'service.tests': 'The service sends the test event.',
    'service.testFails': 'The service refuses the test.',
    'service.resends': 'The service sends the delivery again.',
    'service.resendFails': 'The service refuses: the delivery is being sent.',
  },
  states: {
    loading: 'The list is being read.',
    failed: 'The list could not be read: its message and "Try again"; nothing can be added.',
    reloading: 'The list is being read again after "Try again".',
    listedAfterRetry: 'The list, read on the second try.',
    listed: 'The list of webhooks; no dialog open.',
    editing:
      "The add dialog with no address, the alarm events and every site picked; the person's sites are being read.",
    sitesListed: 'The site picker offers every site or one of the two.',
    sitesFailed:
      'The site picker says the sites could not be read; every site stays picked and the form can be sent.',
    filledForSite: 'The dialog holds the address, one event and one site.',
    addingForSite: 'The address, the event and the site are being sent.',
    incomplete: 'The dialog asks for an address and an event; nothing was sent.',
    addCancelled: 'The add dialog was closed; nothing was sent.',
    filled: 'The dialog holds the address as typed and one event.',
    adding: 'The trimmed address and the event are being sent.',
    refused: "The dialog again with the service's message and the address as typed.",
    shown: 'The secret is shown once; the webhook is listed without it.',
    shownClosed: 'The dialog that showed the secret was closed; nothing of it is kept.',
    copying: 'The secret is being put on the clipboard.',
    copied: 'The secret is on the clipboard; the button says so.',
    copyRefused: 'The clipboard refused: the secret stays shown to copy by hand.',
    switching: 'Switching the first webhook off is being sent.',
    switchedOff: 'The list shows it switched off.',
    switchRefused: "The list as it was, with the service's message.",
    confirming: 'The delete dialog names the webhook.',
    deleteCancelled: 'The deletion was cancelled; nothing was sent.',
    deleting: 'The deletion is being sent.',
    deleteRefused: "The delete dialog with the service's message.",
    deleted: 'The webhook is gone from the list.',
    reading: 'The delivery log of the first webhook is being read.',
    logFailed: 'The log says why it could not be read.',
    viewing: 'The log lists the deliveries; only a listed one can be sent again.',
    rereading: 'The log is being read again after "Refresh".',
    logClosed: 'The log was closed; the list as it was.',
    testing: 'The test event is being sent.',
    testedReading: 'The test was sent: the log is read again to show its try.',
    testRefused: "The log with the service's message about the test.",
    resending: 'The delivery is being sent again.',
    resentReading: 'It was sent again: the log is read again to show the try.',
    resendRefused: "The log with the service's message about the resend.",
  },
});
