import { assertEvent, assign, fromPromise, setup } from 'xstate';
import {
  type ConfigTemplate,
  type TemplateSettings,
  templateNameSchema,
} from '../../contracts/config-templates.ts';

/** A change to the company's templates of one product. */
export type TemplateChange =
  | { kind: 'create'; name: string; settings: TemplateSettings }
  | { kind: 'rename'; id: number; name: string }
  | { kind: 'delete'; id: number };

export interface TemplatesContext {
  modelId: string;
  /** The product's templates, by name; null until the service answered once. */
  templates: ConfigTemplate[] | null;
  /** Settings waiting for a name to be saved as a template (the save dialog is open). */
  draft: TemplateSettings | null;
  /** The template whose differences from the device are shown, to write it. */
  selected: number | null;
  /** The template whose deletion waits for the person's confirmation (the dialog is open). */
  deleting: ConfigTemplate | null;
  /** The template being renamed (the rename dialog is open). */
  renaming: ConfigTemplate | null;
  /** The name typed in the open dialog (save or rename), as typed. */
  name: string;
  error: string | null;
  /** What the last change did, in words. */
  notice: string | null;
  /** The change under way. */
  pending: TemplateChange | null;
}

export type TemplatesEvent =
  | { type: 'templates.refresh' }
  | { type: 'templates.draft'; settings: TemplateSettings }
  | { type: 'templates.cancel' }
  /** Delete was pressed: ask before deleting (`templates.change` deletes, `templates.cancel` keeps it). */
  | { type: 'templates.delete'; template: ConfigTemplate }
  /** Rename was pressed: the dialog opens with the template's name (`templates.change` renames). */
  | { type: 'templates.rename'; template: ConfigTemplate }
  /** The name in the open dialog, as typed. */
  | { type: 'templates.name'; name: string }
  | { type: 'templates.change'; change: TemplateChange }
  | { type: 'templates.select'; id: number | null }
  | { type: 'templates.refused'; reason: string };

/** A change whose name (a new template's, or a rename's) is given: not blank, trimmed. */
const named = (change: TemplateChange): TemplateChange =>
  change.kind === 'delete' ? change : { ...change, name: change.name.trim() };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const NOTICES: Record<TemplateChange['kind'], (change: TemplateChange) => string> = {
  create: (change) => `Saved the template “${'name' in change ? change.name : ''}”.`,
  rename: (change) => `Renamed the template to “${'name' in change ? change.name : ''}”.`,
  delete: () => 'Deleted the template.',
};

/**
 * The settings templates of one product in the Configure panel: listed from the service; a
 * device's settings (or the form as edited) saved under a name; renamed, deleted, imported from a
 * file (the view checks the file first and reports a refusal here); one selected to show what it
 * would change. A name is typed here and a blank one saves nothing. A deletion is asked first and confirmed (or cancelled) in a dialog. A change the service refuses keeps the dialog's input and says why. The save
 * dialog opens and closes, and a change starts, while the list is being read as well: a person's
 * click is never dropped because the list happened to be loading.
 */
export const templatesMachine = setup({
  types: {
    context: {} as TemplatesContext,
    events: {} as TemplatesEvent,
    input: {} as { modelId: string },
  },
  actors: {
    loadTemplates: fromPromise<ConfigTemplate[], { modelId: string }>(async () => {
      throw new Error('The loadTemplates actor is not provided');
    }),
    changeTemplates: fromPromise<unknown, { modelId: string; change: TemplateChange }>(async () => {
      throw new Error('The changeTemplates actor is not provided');
    }),
  },
  guards: {
    /** A template is saved or renamed only under a name the service takes: not blank, at most 80 characters. */
    nameGiven: ({ event }) => {
      assertEvent(event, 'templates.change');
      const { change } = event;
      return change.kind === 'delete' || templateNameSchema.safeParse(change.name).success;
    },
  },
  actions: {
    beginChange: assign(({ event }) => {
      assertEvent(event, 'templates.change');
      return { pending: named(event.change), error: null, notice: null, deleting: null, renaming: null };
    }),
  },
}).createMachine({
  id: 'templates',
  context: ({ input }) => ({
    modelId: input.modelId,
    templates: null,
    draft: null,
    selected: null,
    deleting: null,
    renaming: null,
    name: '',
    error: null,
    notice: null,
    pending: null,
  }),
  initial: 'loading',
  on: {
    'templates.select': { actions: assign({ selected: ({ event }) => event.id, notice: null }) },
    'templates.refused': { actions: assign({ error: ({ event }) => event.reason, notice: null }) },
    'templates.draft': {
      actions: assign({ draft: ({ event }) => event.settings, name: '', error: null, notice: null }),
    },
    'templates.rename': {
      actions: assign({
        renaming: ({ event }) => event.template,
        name: ({ event }) => event.template.name,
        notice: null,
      }),
    },
    'templates.name': { actions: assign({ name: ({ event }) => event.name }) },
    'templates.delete': {
      actions: assign({ deleting: ({ event }) => event.template, notice: null }),
    },
    'templates.cancel': { actions: assign({ draft: null, deleting: null, renaming: null, error: null }) },
  },
  states: {
    loading: {
      invoke: {
        src: 'loadTemplates',
        input: ({ context }) => ({ modelId: context.modelId }),
        onDone: {
          target: 'shown',
          actions: assign(({ context, event }) => ({
            templates: event.output,
            selected: event.output.some((t) => t.id === context.selected) ? context.selected : null,
          })),
        },
        onError: { target: 'shown', actions: assign({ error: ({ event }) => message(event.error) }) },
      },
      // A change pressed while the list is read (after the last change) is made; the list is read after it.
      on: { 'templates.change': { guard: 'nameGiven', target: 'changing', actions: 'beginChange' } },
    },
    shown: {
      on: {
        // Asked again, the list shows without the reason it could not be read before.
        'templates.refresh': { target: 'loading', actions: assign({ error: null }) },
        'templates.change': { guard: 'nameGiven', target: 'changing', actions: 'beginChange' },
      },
    },
    changing: {
      invoke: {
        src: 'changeTemplates',
        input: ({ context }) => ({ modelId: context.modelId, change: context.pending as TemplateChange }),
        onDone: {
          target: 'loading',
          actions: assign(({ context }) => ({
            // Only a new template came from the save dialog; one opened during a rename stays open.
            draft: context.pending?.kind === 'create' ? null : context.draft,
            pending: null,
            notice: context.pending ? NOTICES[context.pending.kind](context.pending) : null,
          })),
        },
        onError: {
          target: 'shown',
          actions: assign({ error: ({ event }) => message(event.error), pending: null }),
        },
      },
    },
  },
});
