import {
  type ActorRefFrom,
  and,
  assign,
  enqueueActions,
  fromCallback,
  sendParent,
  sendTo,
  setup,
  stateIn,
} from 'xstate';
import type { Command } from '../../contracts/catalogue.ts';
import type { TemplateSettings } from '../../contracts/config-templates.ts';
import { targetOf } from '../../src/ble/device-commands.ts';
import { configChanges } from '../../src/device-config/config-changes.ts';
import {
  type TemplatePreview,
  templatePreview,
  templateWriteValues,
} from '../../src/device-config/config-template.ts';
import type { FieldError } from '../../src/device-config/encode-form.ts';
import { EXCLUDED_GROUPS } from '../../src/device-config/excluded-groups.ts';
import { buildForm, type FormGroupModel, formDefaults } from '../../src/device-config/form-fields.ts';
import {
  type FormValues,
  fieldNamed,
  followUntouchedClocks,
  formProblems,
} from '../../src/device-config/form-state.ts';
import type { DeviceProduct } from '../../src/device-config/load-product.ts';
import type { ConfigValue } from '../../src/device-config/process-data.ts';
import type { createBleActors } from './ble-actors.ts';
import type { BleLink, BleTransport, ReadConfiguration } from './ble-types.ts';
import { commandMachine } from './command-machine.ts';
import { configHistoryMachine, type HistoryWrite } from './config-history-machine.ts';
import { type ConnectionReport, connectionMachine } from './connection-machine.ts';
import { passwordMachine } from './password-machine.ts';
import { provisionMachine } from './provision-machine.ts';
import { templatesMachine } from './templates-machine.ts';
import { type WriteFailure, type WriteReport, type WriteRequest, writeMachine } from './write-machine.ts';

/** How a session reaches a device: the browser's Bluetooth, or the demo device simulated in the page. */
export type SessionVia = 'bluetooth' | 'demo';

export interface ConfigureSessionInput {
  product: DeviceProduct;
  /** The device the page is about, when it knows it; its history takes the verified writes. */
  serialNumber?: string | undefined;
  /** The browser's Web Bluetooth (null where the browser has none) and the demo device. */
  transports: { bluetooth: BleTransport | null; demo: BleTransport };
  /**
   * Signed in: the device's configuration history is kept (when the serial is known) and the
   * company's settings templates of the product are offered.
   */
  signedIn: boolean;
  /** The demo device's password, to say where the demo is offered; null when it has none. */
  demoPassword: string | null;
  /** The phone's clock, for the fields filled with the current date and time. */
  now?: () => Date;
}

/** The connection machine as the session runs it: it reports to the session. */
const connectionChild = connectionMachine.provide({
  actions: {
    reportReady: sendParent((_, report: { link: BleLink; config: ReadConfiguration }) => ({
      type: 'connection.ready' as const,
      ...report,
    })),
    reportRead: sendParent((_, report: { config: ReadConfiguration }) => ({
      type: 'connection.read' as const,
      ...report,
    })),
    reportLost: sendParent({ type: 'connection.lost' }),
    reportClosed: sendParent({ type: 'connection.closed' }),
  },
});

/** The write machine as the session runs it: it reports to the session. */
const writeChild = writeMachine.provide({
  actions: {
    reportVerified: sendParent((_, report: { request: WriteRequest; readBack: ReadConfiguration }) => ({
      type: 'write.verified' as const,
      ...report,
    })),
    reportInvalid: sendParent((_, report: { fieldErrors: FieldError[] }) => ({
      type: 'write.invalid' as const,
      ...report,
    })),
    reportFailed: sendParent((_, report: { failure: WriteFailure }) => ({
      type: 'write.failed' as const,
      ...report,
    })),
  },
});

/** The password machine as the session runs it: it says when the form opens and shuts. */
const passwordChild = passwordMachine.provide({
  actions: {
    reportOpen: sendParent({ type: 'password.opened' }),
    reportShut: sendParent({ type: 'password.shut' }),
  },
});

export interface ConfigureSessionContext {
  product: DeviceProduct;
  serialNumber: string | null;
  transports: ConfigureSessionInput['transports'];
  now: () => Date;
  connection: ActorRefFrom<typeof connectionChild>;
  password: ActorRefFrom<typeof passwordChild>;
  write: ActorRefFrom<typeof writeChild>;
  command: ActorRefFrom<typeof commandMachine>;
  history: ActorRefFrom<typeof configHistoryMachine> | null;
  /** Giving the device its network settings (signed in, the serial known). */
  provision: ActorRefFrom<typeof provisionMachine> | null;
  templates: ActorRefFrom<typeof templatesMachine> | null;
  /** How the last Connect reached the device; null before the first. */
  via: SessionVia | null;
  /** The link while it is up. */
  link: BleLink | null;
  /** The configuration the device holds, as last read (or verified after a write). */
  device: ReadConfiguration | null;
  /** The form's fields, built from the last read: each knows the device's value. */
  groups: FormGroupModel[];
  /** What the form shows: the device's values, or the person's edits. */
  values: FormValues;
  /** Why a field's value cannot be written, by field name. */
  errors: Record<string, string>;
  /** What the device held when the write in flight was asked, to say what it changed. */
  beforeWrite: Record<string, ConfigValue> | null;
  /** Whether the write in flight carries what the person typed (then a failure keeps it in the form). */
  writingEdits: boolean;
  /** The settings template the write in flight applies, for the history; null for the form's. */
  applying: string | null;
  demoPassword: string | null;
}

export type ConfigureSessionEvent =
  | { type: 'session.connect'; via: SessionVia }
  | { type: 'session.disconnect' }
  | { type: 'session.reconnect' }
  | { type: 'password.submit'; password: string }
  | { type: 'form.change'; name: string; value: ConfigValue }
  | { type: 'form.revert' }
  | { type: 'form.write' }
  | { type: 'form.dismiss' }
  /** Write a settings template's values to the device, as the form's write does. */
  | { type: 'template.write'; name: string; settings: TemplateSettings }
  | { type: 'command.ask'; command: Command }
  | { type: 'command.confirm' }
  | { type: 'command.cancel' }
  | { type: 'command.dismiss' }
  /** Give the device (over Bluetooth, unlocked) its service-comms secret and the service's address. */
  | { type: 'provision.start' }
  | { type: 'provision.dismiss' }
  | { type: 'history.refresh' }
  | { type: 'history.more' }
  /** The password machine's reports: the device accepted its password (or has none), or locked again. */
  | { type: 'password.opened' }
  | { type: 'password.shut' }
  | ConnectionReport
  | WriteReport;

/** What writing `settings` would do to the device read last; null while none is read. */
function templateOn(context: ConfigureSessionContext, settings: TemplateSettings): TemplatePreview | null {
  return context.device
    ? templatePreview(context.product.config, context.groups, settings, context.device.decoded.values)
    : null;
}

/** A template that fits the device and would change something on it. */
const writesSomething = (preview: TemplatePreview) =>
  preview.problems.length === 0 && preview.changes.length > 0;

/** Fields and values read from a configuration: the form follows the device. */
function formOf(context: ConfigureSessionContext, device: ReadConfiguration) {
  const groups = buildForm(context.product.config, device.decoded, {
    excludedGroups: EXCLUDED_GROUPS,
    now: context.now,
  });
  return { device, groups, values: formDefaults(groups), errors: {} };
}

/**
 * Fields rebuilt from a new read (each knows the device's value again); the person's values stay,
 * and a clock they have not edited follows the phone's time.
 */
function keepingEdits(context: ConfigureSessionContext, device: ReadConfiguration) {
  const groups = buildForm(context.product.config, device.decoded, {
    excludedGroups: EXCLUDED_GROUPS,
    now: context.now,
  });
  return { device, groups, values: followUntouchedClocks(context.groups, groups, context.values) };
}

/**
 * One Configure panel's Bluetooth session, as one machine: it spawns the connection, password,
 * write and command machines (and, signed in, the configuration history and the provisioning of
 * the device's network settings) and keeps them in step
 * from what they report. A ready link is handed to the password machine, a lost one locks it; a
 * verified write updates the connection's configuration and, over real Bluetooth, goes to the
 * device's history (a write to the demo device goes nowhere but the demo device). The form
 * follows the device's values until the person edits a field; after a verified write it follows
 * the device again, and after any failure it keeps what was typed. The session lives as long as
 * its actor; stopping it closes the link it opened.
 */
export const configureSessionMachine = setup({
  types: {
    context: {} as ConfigureSessionContext,
    events: {} as ConfigureSessionEvent,
    input: {} as ConfigureSessionInput,
  },
  actors: {
    connection: connectionChild,
    password: passwordChild,
    write: writeChild,
    command: commandMachine,
    history: configHistoryMachine,
    provision: provisionMachine,
    templates: templatesMachine,
    /** Holds the link last opened and closes it when the session stops (the page is left). */
    closeLinkOnStop: fromCallback<{ type: 'link'; link: BleLink }>(({ receive }) => {
      let last: BleLink | null = null;
      receive((event) => {
        last = event.link;
      });
      return () => last?.disconnect();
    }),
  },
  guards: {
    unlocked: stateIn('#configureSession.lock.unlocked'),
    /** Only a real device is given a secret: the demo device is nobody's device. */
    provisionable: ({ context }) =>
      context.via === 'bluetooth' &&
      context.provision !== null &&
      context.provision.getSnapshot().can({ type: 'provision.start', link: context.link as BleLink }),
    formValid: ({ context }) => Object.keys(formProblems(context.groups, context.values)).length === 0,
    editable: ({ context }, { name }: { name: string }) => {
      const field = fieldNamed(context.groups, name);
      return field !== undefined && !field.disabled;
    },
    writingEdits: ({ context }) => context.writingEdits,
    /** A template can be written to the device read last, and would change something on it. */
    templateApplies: ({ context, event }) => {
      if (event.type !== 'template.write') return false;
      const preview = templateOn(context, event.settings);
      return preview !== null && writesSomething(preview);
    },
    canConnect: ({ context }, { via }: { via: SessionVia }) => {
      const transport = via === 'demo' ? context.transports.demo : context.transports.bluetooth;
      return transport !== null && context.connection.getSnapshot().can({ type: 'ble.connect', transport });
    },
  },
  actions: {
    connect: enqueueActions(({ context, enqueue }, { via }: { via: SessionVia }) => {
      const transport = via === 'demo' ? context.transports.demo : context.transports.bluetooth;
      if (!transport) return;
      enqueue.assign({ via });
      enqueue.sendTo(context.connection, { type: 'ble.connect', transport });
    }),
    linkReady: enqueueActions(({ context, enqueue }, { link }: { link: BleLink }) => {
      enqueue.assign({ link });
      enqueue.sendTo(context.password, { type: 'password.connected', link });
      enqueue.sendTo('linkCloser', { type: 'link', link });
    }),
    linkDown: enqueueActions(({ context, enqueue }, { forget }: { forget: boolean }) => {
      enqueue.assign({ link: null });
      enqueue.sendTo(context.password, { type: 'password.disconnected', forget });
    }),
    followDevice: assign(({ context }, { config }: { config: ReadConfiguration }) => formOf(context, config)),
    keepEdits: assign(({ context }, { config }: { config: ReadConfiguration }) =>
      keepingEdits(context, config),
    ),
    followLatest: assign(({ context }) => (context.device ? formOf(context, context.device) : {})),
    change: assign(({ context }, { name, value }: { name: string; value: ConfigValue }) => {
      const values = { ...context.values, [name]: value };
      const { [name]: _, ...errors } = context.errors;
      const problem = formProblems(context.groups, { [name]: value })[name];
      return { values, errors: problem ? { ...errors, [name]: problem } : errors };
    }),
    showProblems: assign(({ context }) => ({ errors: formProblems(context.groups, context.values) })),
    startWrite: enqueueActions(({ context, enqueue }, { edited }: { edited: boolean }) => {
      if (!context.link || !context.device) return;
      enqueue.assign({
        beforeWrite: context.device.decoded.values,
        errors: {},
        writingEdits: edited,
        applying: null,
      });
      enqueue.sendTo(context.write, {
        type: 'config.write',
        link: context.link,
        groups: context.groups,
        values: context.values,
        base: context.device.frame,
      });
    }),
    startTemplateWrite: enqueueActions(
      (
        { context, enqueue },
        { name, settings, edited }: { name: string; settings: TemplateSettings; edited: boolean },
      ) => {
        if (!context.link || !context.device) return;
        enqueue.assign({ beforeWrite: context.device.decoded.values, writingEdits: edited, applying: name });
        enqueue.sendTo(context.write, {
          type: 'config.write',
          link: context.link,
          groups: context.groups,
          values: templateWriteValues(context.groups, settings),
          base: context.device.frame,
        });
      },
    ),
    dismissWrite: sendTo(({ context }) => context.write, { type: 'config.dismiss' }),
    /**
     * A verified write: the connection holds what the device now holds; over real Bluetooth what
     * it changed goes to the device's history, a demo write goes nowhere else.
     */
    recordWrite: enqueueActions(
      (
        { context, enqueue },
        { request, readBack }: { request: WriteRequest; readBack: ReadConfiguration },
      ) => {
        enqueue.sendTo(context.connection, { type: 'ble.configWritten', config: readBack });
        if (context.via === 'demo') {
          const password = readBack.decoded.values.password;
          if (typeof password === 'string') enqueue.assign({ demoPassword: password });
        }
        const history = context.history;
        // Only a real device's write is its history: the demo device is nobody's device.
        if (!history || context.via !== 'bluetooth') return;
        const before = context.beforeWrite ?? {};
        const changes = configChanges(request.groups, before, readBack.decoded.values);
        if (changes.length === 0) return;
        const write: HistoryWrite = {
          serialNumber: context.serialNumber ?? request.link.name,
          transport: 'web-bluetooth',
          changes,
          ...(context.applying ? { template: context.applying } : {}),
        };
        enqueue.sendTo(history, { type: 'history.written', write });
      },
    ),
    takeFieldErrors: assign((_, { fieldErrors }: { fieldErrors: FieldError[] }) => ({
      errors: Object.fromEntries(fieldErrors.map((e) => [e.field, e.message])),
    })),
  },
}).createMachine({
  id: 'configureSession',
  context: ({ input, spawn }) => ({
    product: input.product,
    serialNumber: input.serialNumber ?? null,
    transports: input.transports,
    now: input.now ?? (() => new Date()),
    connection: spawn('connection', {
      id: 'connection',
      input: { target: targetOf(input.product.entry) },
    }),
    password: spawn('password', {
      id: 'password',
      input: { needsPassword: input.product.config.rawData.some((item) => item.name === 'pass_00') },
    }),
    write: spawn('write', { id: 'write', input: { product: input.product } }),
    command: spawn('command', { id: 'command' }),
    history:
      input.signedIn && input.serialNumber
        ? spawn('history', { id: 'history', input: { serial: input.serialNumber } })
        : null,
    provision:
      input.signedIn && input.serialNumber
        ? spawn('provision', { id: 'provision', input: { serial: input.serialNumber } })
        : null,
    templates: input.signedIn
      ? spawn('templates', { id: 'templates', input: { modelId: input.product.modelId } })
      : null,
    via: null,
    link: null,
    device: null,
    groups: [],
    values: {},
    errors: {},
    beforeWrite: null,
    writingEdits: false,
    applying: null,
    demoPassword: input.demoPassword,
  }),
  invoke: { id: 'linkCloser', src: 'closeLinkOnStop' },
  type: 'parallel',
  on: {
    'session.connect': {
      guard: { type: 'canConnect', params: ({ event }) => ({ via: event.via }) },
      actions: { type: 'connect', params: ({ event }) => ({ via: event.via }) },
    },
    'session.disconnect': {
      actions: sendTo(({ context }) => context.connection, { type: 'ble.disconnect' }),
    },
    'session.reconnect': { actions: sendTo(({ context }) => context.connection, { type: 'ble.reconnect' }) },
    'password.submit': {
      actions: sendTo(
        ({ context }) => context.password,
        ({ event }) => event,
      ),
    },
    'form.dismiss': { actions: 'dismissWrite' },
    // A command goes to the device only over an open link, once the device is unlocked.
    'command.ask': {
      guard: and([stateIn('#configureSession.link.open'), 'unlocked']),
      actions: sendTo(
        ({ context }) => context.command,
        ({ event }) => event,
      ),
    },
    'command.cancel': {
      actions: sendTo(
        ({ context }) => context.command,
        ({ event }) => event,
      ),
    },
    'command.dismiss': {
      actions: sendTo(
        ({ context }) => context.command,
        ({ event }) => event,
      ),
    },
    'provision.dismiss': {
      actions: enqueueActions(({ context, enqueue }) => {
        if (context.provision) enqueue.sendTo(context.provision, { type: 'provision.dismiss' });
      }),
    },
    'history.refresh': {
      actions: enqueueActions(({ context, enqueue }) => {
        if (context.history) enqueue.sendTo(context.history, { type: 'history.refresh' });
      }),
    },
    'history.more': {
      actions: enqueueActions(({ context, enqueue }) => {
        if (context.history) enqueue.sendTo(context.history, { type: 'history.more' });
      }),
    },
  },
  states: {
    /** Whether the device lets the form be changed and written, as the password machine reports. */
    lock: {
      initial: 'locked',
      states: {
        locked: { on: { 'password.opened': 'unlocked' } },
        unlocked: { on: { 'password.shut': 'locked' } },
      },
    },
    /** The link as the connection reports it. */
    link: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'connection.ready': {
              target: 'open',
              actions: { type: 'linkReady', params: ({ event }) => ({ link: event.link }) },
            },
          },
        },
        open: {
          on: {
            'connection.lost': {
              target: 'lost',
              actions: { type: 'linkDown', params: { forget: false } },
            },
            'connection.closed': {
              target: 'closed',
              actions: { type: 'linkDown', params: { forget: true } },
            },
            'command.confirm': {
              guard: 'unlocked',
              actions: enqueueActions(({ context, enqueue }) => {
                if (context.link)
                  enqueue.sendTo(context.command, { type: 'command.confirm', link: context.link });
              }),
            },
            // The secret goes to the device over this link, once it is unlocked.
            'provision.start': {
              guard: and(['unlocked', 'provisionable']),
              actions: enqueueActions(({ context, enqueue }) => {
                if (context.link && context.provision)
                  enqueue.sendTo(context.provision, { type: 'provision.start', link: context.link });
              }),
            },
          },
        },
        /** Dropped on its own: the connection is trying to get it back without the chooser. */
        lost: {
          on: {
            'connection.ready': {
              target: 'open',
              actions: { type: 'linkReady', params: ({ event }) => ({ link: event.link }) },
            },
            'connection.closed': {
              target: 'closed',
              actions: { type: 'linkDown', params: { forget: true } },
            },
          },
        },
      },
    },
    /**
     * The form: following the device, holding the person's edits, or being written. A new read
     * rebuilds the fields (each knows what the device holds now) and keeps what the form shows,
     * except while it follows the device.
     */
    form: {
      initial: 'empty',
      on: {
        'connection.ready': {
          actions: { type: 'keepEdits', params: ({ event }) => ({ config: event.config }) },
        },
        'connection.read': {
          actions: { type: 'keepEdits', params: ({ event }) => ({ config: event.config }) },
        },
      },
      states: {
        /** Nothing read from a device yet. */
        empty: {
          on: {
            'connection.ready': {
              target: 'following',
              actions: { type: 'followDevice', params: ({ event }) => ({ config: event.config }) },
            },
          },
        },
        following: {
          on: {
            'connection.ready': {
              actions: { type: 'followDevice', params: ({ event }) => ({ config: event.config }) },
            },
            'connection.read': {
              actions: { type: 'followDevice', params: ({ event }) => ({ config: event.config }) },
            },
            'form.change': {
              guard: { type: 'editable', params: ({ event }) => ({ name: event.name }) },
              target: 'edited',
              actions: { type: 'change', params: ({ event }) => ({ name: event.name, value: event.value }) },
            },
            'form.write': [
              {
                guard: and([stateIn('#configureSession.link.open'), 'unlocked', 'formValid']),
                target: 'writing',
                actions: { type: 'startWrite', params: { edited: false } },
              },
              { guard: and([stateIn('#configureSession.link.open'), 'unlocked']), actions: 'showProblems' },
            ],
            'template.write': {
              guard: and([stateIn('#configureSession.link.open'), 'unlocked', 'templateApplies']),
              target: 'writing',
              actions: {
                type: 'startTemplateWrite',
                params: ({ event }) => ({ name: event.name, settings: event.settings, edited: false }),
              },
            },
          },
        },
        /** The person changed a field: reads of the device no longer overwrite the form. */
        edited: {
          on: {
            'form.change': {
              guard: { type: 'editable', params: ({ event }) => ({ name: event.name }) },
              actions: { type: 'change', params: ({ event }) => ({ name: event.name, value: event.value }) },
            },
            'form.revert': { target: 'following', actions: ['followLatest', 'dismissWrite'] },
            'form.write': [
              {
                guard: and([stateIn('#configureSession.link.open'), 'unlocked', 'formValid']),
                target: 'writing',
                actions: { type: 'startWrite', params: { edited: true } },
              },
              { guard: and([stateIn('#configureSession.link.open'), 'unlocked']), actions: 'showProblems' },
            ],
            'template.write': {
              guard: and([stateIn('#configureSession.link.open'), 'unlocked', 'templateApplies']),
              target: 'writing',
              actions: {
                type: 'startTemplateWrite',
                params: ({ event }) => ({ name: event.name, settings: event.settings, edited: true }),
              },
            },
          },
        },
        /** A write is on its way: the form is read-only until the write machine reports. */
        writing: {
          on: {
            'write.verified': {
              target: 'following',
              actions: [
                {
                  type: 'recordWrite',
                  params: ({ event }) => ({ request: event.request, readBack: event.readBack }),
                },
                { type: 'followDevice', params: ({ event }) => ({ config: event.readBack }) },
              ],
            },
            'write.invalid': {
              target: 'edited',
              actions: {
                type: 'takeFieldErrors',
                params: ({ event }) => ({ fieldErrors: event.fieldErrors }),
              },
            },
            // Whatever went wrong, what the person typed stays in the form; a form they had not
            // touched (a template's write, or the clock alone) goes on following the device.
            'write.failed': [{ guard: 'writingEdits', target: 'edited' }, { target: 'following' }],
          },
        },
      },
    },
  },
});

/** The I/O of a session's children: the Bluetooth actors over one product; signed in, the history's and the templates'. */
export interface ConfigureSessionIo {
  ble: ReturnType<typeof createBleActors>;
  history?: NonNullable<Parameters<typeof configHistoryMachine.provide>[0]['actors']>;
  /** The service's side of provisioning: a new secret and the address (`issue`). */
  provision?: { issue: NonNullable<Parameters<typeof provisionMachine.provide>[0]['actors']>['issue'] };
  templates?: NonNullable<Parameters<typeof templatesMachine.provide>[0]['actors']>;
}

/**
 * The session with its children's I/O provided, ready for `createActor` (or `useActorRef`).
 * @example createActor(configureSessionWith({ ble: createBleActors({ codec, product }) }), { input })
 */
export function configureSessionWith(io: ConfigureSessionIo) {
  return configureSessionMachine.provide({
    actors: {
      connection: connectionChild.provide({ actors: io.ble.connection }),
      password: passwordChild.provide({ actors: io.ble.password }),
      write: writeChild.provide({ actors: io.ble.write }),
      command: commandMachine.provide({ actors: io.ble.command }),
      ...(io.history ? { history: configHistoryMachine.provide({ actors: io.history }) } : {}),
      ...(io.provision
        ? { provision: provisionMachine.provide({ actors: { ...io.ble.provision, ...io.provision } }) }
        : {}),
      ...(io.templates ? { templates: templatesMachine.provide({ actors: io.templates }) } : {}),
    },
  });
}

export type ConfigureSessionActor = ActorRefFrom<typeof configureSessionMachine>;
type ConfigureSessionSnapshot = ReturnType<ConfigureSessionActor['getSnapshot']>;

/** The device accepted its password (or has none): what the views ask, and the guards. */
export const deviceUnlocked = (s: ConfigureSessionSnapshot) => s.matches({ lock: 'unlocked' });

/** What a template would do to the device read last, as the templates section shows it. */
export interface TemplateOnDevice extends TemplatePreview {
  /** It fits and would change something, but the device is locked: the password comes first. */
  needsPassword: boolean;
}

/**
 * What writing `settings` would do to the device read last (the problems that refuse it, the
 * settings it changes), by the rule `template.write`'s guard applies; null while no device is read.
 */
export function templateOnDevice(
  s: ConfigureSessionSnapshot,
  settings: TemplateSettings,
): TemplateOnDevice | null {
  const preview = templateOn(s.context, settings);
  return preview && { ...preview, needsPassword: !deviceUnlocked(s) && writesSomething(preview) };
}

/**
 * The product's form a template file is checked against: the device's when one is read, else
 * the product's own (a file can be imported before any device is connected).
 */
export const templateFormOf = (s: ConfigureSessionSnapshot): FormGroupModel[] =>
  s.context.device
    ? s.context.groups
    : buildForm(s.context.product.config, { raw: {}, values: {} }, { excludedGroups: EXCLUDED_GROUPS });

/** The form's fields take input: the link is open, the device unlocked, and no write is on its way. */
export const formEditable = (s: ConfigureSessionSnapshot) =>
  s.matches({ link: 'open' }) && deviceUnlocked(s) && !s.matches({ form: 'writing' });
