import { expect } from 'vitest';
import { createActor } from 'xstate';
import type { ConfigTemplate, TemplateSettings } from '../../contracts/config-templates.ts';
import { type TemplateChange, templatesMachine } from '../../machines/ble/templates-machine.ts';
import { NETWORK_ERROR } from '../../src/api/api-error.ts';
import {
  createTemplate,
  deleteTemplate,
  fetchTemplates,
  updateTemplate,
} from '../../src/api/commissioning-api.ts';
import { EXCLUDED_GROUPS } from '../../src/device-config/excluded-groups.ts';
import { buildForm } from '../../src/device-config/form-fields.ts';
import { readTemplateFile, templateFile } from '../../src/features/devices/configure/template-file.ts';
import { bundledProducts } from '../device-config/bundled-products.ts';
import { commissioningService, letGo } from './commissioning-service.ts';
import { controlledActor } from './fakes.ts';
import { recordCoverage } from './paths/coverage-recorder.ts';
import type { ModelDriver } from './paths/model-entry.ts';

const MODEL_ID = 'HX-5000';
const products = bundledProducts();
const hybrid = products.find((p) => p.modelId === MODEL_ID);
if (!hybrid) throw new Error(`${MODEL_ID} missing`);
const groups = buildForm(hybrid.config, { raw: {}, values: {} }, { excludedGroups: EXCLUDED_GROUPS });
const modelName = (modelId: string) => products.find((p) => p.modelId === modelId)?.entry.name ?? modelId;

/** What the company already has when a path begins: one template, Standard. */
const STANDARD: TemplateSettings = { maxChargeCurrent: 35 };
/** The form's settings when the person presses "Save as template". */
const DRAFT: TemplateSettings = { maxChargeCurrent: 40, workMode: 2 };
const NIGHT = 'Night charge';
const RENAMED = 'Standard 2026';

/** A template file as "Export" writes it, from another company's template of `modelId`. */
function exported(name: string, modelId: string, settings: TemplateSettings): string {
  const template: ConfigTemplate = {
    id: 1,
    name,
    modelId,
    settings,
    createdBy: 'installer@elsewhere.example',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedBy: 'installer@elsewhere.example',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  return JSON.stringify(templateFile(template, modelName(modelId)));
}
const importing = readTemplateFile(
  exported('Winter', MODEL_ID, { maxChargeCurrent: 20 }),
  MODEL_ID,
  modelName,
  groups,
);
const refusing = readTemplateFile(
  exported('Basalt standard', 'BX-10', { maxChargeCurrent: 20 }),
  MODEL_ID,
  modelName,
  groups,
);
if (!importing.ok || refusing.ok) throw new Error('the template files do not read as expected');
/** A file of the HX-5000 template "Winter", as the panel's file check takes it. */
const IMPORTED = importing.file;
/** Why the panel's file check refuses a file of a BX-10 template. */
const REFUSAL = refusing.reason;

/** What the Configure panel's `changeTemplates` does with a change. */
const changes =
  (api: Awaited<ReturnType<typeof commissioningService>>['api']) =>
  ({ modelId, change }: { modelId: string; change: TemplateChange }): Promise<unknown> => {
    if (change.kind === 'create')
      return createTemplate(api, { name: change.name, modelId, settings: change.settings });
    if (change.kind === 'rename') return updateTemplate(api, change.id, { name: change.name });
    return deleteTemplate(api, change.id);
  };

/**
 * Events and state checks that run one path of the templates model against the real machine. The
 * list and every change go, when the path lets them, through the app's commissioning calls to the
 * configuration service in process; before its first call a path leaves installer A's company
 * with one HX-5000 template, Standard. Files are read by the panel's own file check.
 */
export function templatesModelDriver(): ModelDriver {
  const load = controlledActor<ConfigTemplate[], { modelId: string }>();
  const change = controlledActor<unknown, { modelId: string; change: TemplateChange }>();
  const actor = createActor(
    templatesMachine.provide({ actors: { loadTemplates: load.logic, changeTemplates: change.logic } }),
    { input: { modelId: MODEL_ID }, inspect: recordCoverage },
  ).start();
  const snap = () => actor.getSnapshot();

  let prepared: Promise<ConfigTemplate> | null = null;
  /** The company's templates as the path begins: Standard alone. */
  const standard = () => {
    prepared ??= (async () => {
      const { api, network } = await commissioningService();
      network.online = true;
      for (const t of await fetchTemplates(api, MODEL_ID)) await deleteTemplate(api, t.id);
      return createTemplate(api, { name: 'Standard', modelId: MODEL_ID, settings: STANDARD });
    })();
    return prepared;
  };
  const service = async () => {
    await standard();
    return commissioningService();
  };
  /** Lets the held list call go to the service, out of signal when `offline`. */
  const listGoes = async (offline = false) => {
    const s = await service();
    s.network.online = !offline;
    try {
      await letGo(load.last(), ({ modelId }) => fetchTemplates(s.api, modelId));
    } finally {
      s.network.online = true;
    }
  };
  const changeGoes = async () => letGo(change.last(), changes((await service()).api));
  const send = async (next: TemplateChange) => {
    await standard();
    actor.send({ type: 'templates.change', change: next });
  };
  /** The person types `name` in the open "Save as template" dialog and presses Save template. */
  const named = async (name: string) => {
    actor.send({ type: 'templates.name', name });
    await send({ kind: 'create', name: snap().context.name, settings: snap().context.draft ?? {} });
  };
  const idOf = async (name: string) => {
    const found = (await fetchTemplates((await service()).api, MODEL_ID)).find((t) => t.name === name);
    if (!found) throw new Error(`no template ${name}`);
    return found.id;
  };
  /** The template the path works on: Standard, whatever it is called by now. */
  const standardId = async () => (await standard()).id;
  let created = '';

  const names = () => snap().context.templates?.map((t) => t.name) ?? null;
  const loading = () => {
    expect(snap().value).toBe('loading');
    expect(load.last().input).toEqual({ modelId: MODEL_ID });
    expect(load.last().settled).toBe(false);
  };
  const shown = (list: string[] | null, rest: Partial<ReturnType<typeof snap>['context']>) => {
    expect(snap().value).toBe('shown');
    expect(names()).toEqual(list);
    expect(snap().context).toMatchObject(rest);
  };
  const changing = async (expected: TemplateChange) => {
    expect(snap().value).toBe('changing');
    expect(change.last().input).toEqual({ modelId: MODEL_ID, change: expected });
    expect(change.last().settled).toBe(false);
    expect(snap().context).toMatchObject({ error: null, notice: null });
  };

  return {
    events: {
      'list.read': () => listGoes(),
      'list.fails': () => listGoes(true),
      'list.refresh': () => actor.send({ type: 'templates.refresh' }),
      'save.clicked': () => actor.send({ type: 'templates.draft', settings: DRAFT }),
      'dialog.cancelled': () => actor.send({ type: 'templates.cancel' }),
      'name.given': async () => {
        created = NIGHT;
        await named(NIGHT);
      },
      'name.taken': () => named('Standard'),
      'template.chosen': async () => actor.send({ type: 'templates.select', id: await standardId() }),
      'rename.submitted': async () => {
        const id = await standardId();
        const template = snap().context.templates?.find((t) => t.id === id) ?? (await standard());
        actor.send({ type: 'templates.rename', template });
        expect(snap().context.name).toBe('Standard');
        actor.send({ type: 'templates.name', name: RENAMED });
        await send({ kind: 'rename', id, name: snap().context.name });
      },
      'delete.pressed': async () => {
        const id = await standardId();
        const template = snap().context.templates?.find((t) => t.id === id) ?? (await standard());
        actor.send({ type: 'templates.delete', template });
      },
      'delete.kept': () => actor.send({ type: 'templates.cancel' }),
      'delete.confirmed': async () => send({ kind: 'delete', id: await standardId() }),
      'file.refused': () => actor.send({ type: 'templates.refused', reason: REFUSAL }),
      'file.imported': async () => {
        created = IMPORTED.name;
        await send({ kind: 'create', name: IMPORTED.name, settings: IMPORTED.settings });
      },
      'service.answers': () => changeGoes(),
    },
    states: {
      opening: () => {
        loading();
        expect(snap().context).toMatchObject({ templates: null, draft: null, error: null });
      },
      namingWhileOpening: () => {
        loading();
        expect(snap().context).toMatchObject({ templates: null, draft: DRAFT, error: null });
      },
      unreachable: () => shown(null, { error: NETWORK_ERROR, draft: null }),
      retrying: () => {
        loading();
        expect(snap().context.error).toBeNull();
      },
      listed: () =>
        shown(['Standard'], { draft: null, error: null, notice: null, selected: null, pending: null }),
      naming: () => shown(['Standard'], { draft: DRAFT, error: null, notice: null }),
      savingTaken: () => changing({ kind: 'create', name: 'Standard', settings: DRAFT }),
      nameRefused: () =>
        shown(['Standard'], {
          draft: DRAFT,
          error: 'A template of this product is already called "Standard"',
          pending: null,
        }),
      saving: () => changing({ kind: 'create', name: NIGHT, settings: DRAFT }),
      importing: async () => {
        await changing({ kind: 'create', name: 'Winter', settings: { maxChargeCurrent: 20 } });
        expect(snap().context.draft).toBeNull();
      },
      savedReloading: () => {
        loading();
        expect(snap().context).toMatchObject({
          draft: null,
          error: null,
          pending: null,
          notice: `Saved the template “${created}”.`,
        });
      },
      saved: async () => {
        shown([created, 'Standard'].sort(), {
          draft: null,
          error: null,
          notice: `Saved the template “${created}”.`,
        });
        const kept = snap().context.templates?.find((t) => t.name === created);
        expect(kept?.settings).toEqual(created === NIGHT ? DRAFT : { maxChargeCurrent: 20 });
        expect(kept?.id).toBe(await idOf(created));
      },
      fileRefused: () => shown(['Standard'], { draft: null, error: REFUSAL, notice: null }),
      chosen: async () => shown(['Standard'], { selected: await standardId(), error: null, deleting: null }),
      renaming: async () => changing({ kind: 'rename', id: await standardId(), name: RENAMED }),
      renamingWithDialog: async () => {
        await changing({ kind: 'rename', id: await standardId(), name: RENAMED });
        expect(snap().context.draft).toEqual(DRAFT);
      },
      renamedReloading: async () => {
        loading();
        expect(snap().context).toMatchObject({
          notice: `Renamed the template to “${RENAMED}”.`,
          selected: await standardId(),
        });
      },
      dialogKept: () => {
        loading();
        // The rename was not the dialog's: its settings stay, for a name.
        expect(snap().context).toMatchObject({
          draft: DRAFT,
          notice: `Renamed the template to “${RENAMED}”.`,
        });
      },
      renamed: async () =>
        // The chosen template is still chosen under its new name.
        shown([RENAMED], { selected: await standardId(), notice: `Renamed the template to “${RENAMED}”.` }),
      askingDelete: async () => {
        shown(['Standard'], { selected: await standardId(), error: null, pending: null });
        expect(snap().context.deleting?.id).toBe(await standardId());
      },
      askingDeleteWhileReloading: async () => {
        loading();
        expect(snap().context.deleting?.id).toBe(await standardId());
      },
      deleting: async () => {
        await changing({ kind: 'delete', id: await standardId() });
        expect(snap().context.deleting).toBeNull();
      },
      deletingWhileReloading: async () => changing({ kind: 'delete', id: await standardId() }),
      deletedReloading: () => {
        loading();
        expect(snap().context.notice).toBe('Deleted the template.');
      },
      deleted: () => shown([], { selected: null, notice: 'Deleted the template.', error: null }),
    },
  };
}
