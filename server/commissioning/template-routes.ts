import { Hono } from 'hono';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { isManager, isStaff } from '../../contracts/access-policy.ts';
import {
  type ConfigTemplate,
  type DeviceApplyResult,
  remoteApplyRequestSchema,
  remoteApplyResultSchema,
  type TemplateSettings,
  templateCreateSchema,
  templateListQuerySchema,
  templateListSchema,
  templateSchema,
  templateUpdateSchema,
} from '../../contracts/config-templates.ts';
import { idParamSchema } from '../../contracts/ids.ts';
import { loadCodec } from '../../src/codec/load-node.ts';
import { CodecError } from '../../src/codec/types.ts';
import { checkTemplate } from '../../src/device-config/config-template.ts';
import { EXCLUDED_GROUPS } from '../../src/device-config/excluded-groups.ts';
import { buildForm } from '../../src/device-config/form-fields.ts';
import { allowOnly } from '../access/allow-only.ts';
import { type DeviceRights, deviceRights } from '../access/device-access.ts';
import { requireCompanyTemplate, templateCompanyOf } from '../access/template-access.ts';
import { hitRateLimit } from '../auth/rate-limit.ts';
import type { ServerContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { ApiError, forbidden } from '../http/errors.ts';
import type { AuthVariables } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { limitChecks } from '../limits/request-limits.ts';
import { describeRoute } from '../openapi/route-notes.ts';
import type { ProductCatalogue } from './product-catalogue.ts';
import { applyToDevice } from './remote-apply.ts';
import { deleteTemplate, insertTemplate, listTemplates, updateTemplate } from './template-store.ts';

const idParams = z.object({ id: idParamSchema });

function toTemplate(row: Selectable<Database['config_templates']>): ConfigTemplate {
  return {
    id: row.id,
    name: row.name,
    modelId: row.model_id,
    settings: typeof row.settings === 'string' ? JSON.parse(row.settings) : row.settings,
    createdBy: row.created_by_email,
    createdAt: new Date(row.created_at).toISOString(),
    updatedBy: row.updated_by_email,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Check a template's settings against its product's form: settings the product lacks and values
 * outside the form's limits are refused, each by name.
 * @throws {ApiError} 400 naming `modelId` (no such model) or `settings.<name>` (the first problem;
 *   the message lists them all).
 */
async function requireValidSettings(
  catalogue: ProductCatalogue,
  modelId: string,
  settings: TemplateSettings,
) {
  const product = await catalogue.product(modelId);
  if (!product)
    throw new ApiError(
      400,
      'invalid_input',
      `modelId: ${modelId} is not a model of the catalogue`,
      'modelId',
    );
  const groups = buildForm(product.config, { raw: {}, values: {} }, { excludedGroups: EXCLUDED_GROUPS });
  const problems = checkTemplate(groups, settings);
  const [first] = problems;
  if (first)
    throw new ApiError(
      400,
      'template_invalid',
      `Settings the ${modelId} cannot take: ${problems.map((problem) => problem.message).join('; ')}`,
      `settings.${first.field}`,
    );
}

/** A name already used for another template of the same product in the company: 409. */
async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === '23505')
      throw new ApiError(
        409,
        'template_name_taken',
        `A template of this product is already called "${name}"`,
        'name',
      );
    throw error;
  }
}

const templateExample = {
  name: 'Standard 5 kW hybrid',
  modelId: 'HX-5000',
  settings: { maxChargeCurrent: 40, batteryFloatVoltage: 54.5, workMode: 2 },
};

/**
 * Settings templates, mounted at `/fleet/config-templates`: shared by the admins and installers
 * of the creator's company (`templateCompanyOf`), invisible (404) to everyone else; owners make none.
 */
export function templateRoutes(
  ctx: ServerContext,
  catalogue: ProductCatalogue,
): Hono<{ Variables: AuthVariables }> {
  const app = new Hono<{ Variables: AuthVariables }>();
  const { db } = ctx;
  const onlyManagers = () => allowOnly(isManager, 'Settings templates are for installers and admins');

  app.get(
    '/',
    describeRoute({
      summary: "The company's settings templates, by product then name",
      tag: 'templates',
      responses: {
        200: { description: 'The templates', schema: templateListSchema },
        403: { description: 'Owners' },
      },
    }),
    onlyManagers(),
    validate('query', templateListQuerySchema),
    async (c) => {
      const { modelId } = c.req.valid('query');
      const rows = await listTemplates(db, await templateCompanyOf(db, c.get('principal')), modelId);
      return c.json({ items: rows.map(toTemplate) });
    },
  );

  app.post(
    '/',
    describeRoute({
      summary: 'Save a settings template of a product',
      tag: 'templates',
      example: templateExample,
      responses: {
        201: { description: 'The template', schema: templateSchema },
        403: { description: 'Owners' },
        409: { description: 'The company has a template of that product by that name' },
      },
    }),
    onlyManagers(),
    validate('json', templateCreateSchema),
    async (c) => {
      const principal = c.get('principal');
      const body = c.req.valid('json');
      await requireValidSettings(catalogue, body.modelId, body.settings);
      const company = await templateCompanyOf(db, principal);
      const row = await uniqueName(body.name, () => insertTemplate(db, principal, { company, ...body }));
      return c.json(toTemplate(row), 201);
    },
  );

  app.get(
    '/:id',
    describeRoute({
      summary: 'A settings template',
      tag: 'templates',
      responses: {
        200: { description: 'The template', schema: templateSchema },
        404: { description: "No such template in the caller's company" },
      },
    }),
    onlyManagers(),
    validate('param', idParams),
    async (c) =>
      c.json(toTemplate(await requireCompanyTemplate(db, c.get('principal'), c.req.valid('param').id))),
  );

  app.put(
    '/:id',
    describeRoute({
      summary: 'Rename a settings template, replace its settings, or both',
      tag: 'templates',
      example: { name: 'Standard 5 kW hybrid (2026)', settings: templateExample.settings },
      responses: {
        200: { description: 'The template', schema: templateSchema },
        404: { description: "No such template in the caller's company" },
        409: { description: 'The company has another template of that product by that name' },
      },
    }),
    onlyManagers(),
    validate('param', idParams),
    validate('json', templateUpdateSchema),
    async (c) => {
      const principal = c.get('principal');
      const body = c.req.valid('json');
      const current = await requireCompanyTemplate(db, principal, c.req.valid('param').id);
      if (body.settings) await requireValidSettings(catalogue, current.model_id, body.settings);
      const row = await uniqueName(body.name ?? current.name, () =>
        updateTemplate(db, principal, current.id, body),
      );
      return c.json(toTemplate(row));
    },
  );

  app.delete(
    '/:id',
    describeRoute({
      summary: 'Delete a settings template (the history of what it wrote stays)',
      tag: 'templates',
      responses: {
        204: { description: 'Deleted' },
        404: { description: "No such template in the caller's company" },
      },
    }),
    onlyManagers(),
    validate('param', idParams),
    async (c) => {
      const template = await requireCompanyTemplate(db, c.get('principal'), c.req.valid('param').id);
      await deleteTemplate(db, template.id);
      return c.body(null, 204);
    },
  );

  app.post(
    '/:id/apply',
    describeRoute({
      limits: ['templateApplyPerUser'],
      summary:
        'Write a template to devices online over service-comms, one at a time, each verified by reading back',
      tag: 'templates',
      example: { serials: ['HX5K-24-000101'], password: '0000', continueOnFailure: false },
      responses: {
        200: { description: 'One result per device, in the order asked', schema: remoteApplyResultSchema },
        403: { description: 'A device the caller sees but may not command' },
        404: { description: 'No such template, or a device the caller cannot see' },
        429: { description: 'Too many applies' },
      },
    }),
    onlyManagers(),
    validate('param', idParams),
    validate('json', remoteApplyRequestSchema),
    async (c) => {
      const principal = c.get('principal');
      const body = c.req.valid('json');
      const row = await requireCompanyTemplate(db, principal, c.req.valid('param').id);
      const template = toTemplate(row);
      await hitRateLimit(ctx, limitChecks('template-apply', { templateApplyPerUser: principal.id }));
      const codec = await loadCodec();
      if (body.password !== undefined) {
        try {
          codec.passwordCodes(body.password);
        } catch (error) {
          if (error instanceof CodecError)
            throw new ApiError(400, 'invalid_input', `password: ${error.message}`, 'password');
          throw error;
        }
      }
      // Every device is checked before any is written: one the caller may not command stops the whole run.
      const staff = isStaff(principal);
      const devices: DeviceRights[] = [];
      for (const [index, serial] of body.serials.entries()) {
        const rights = await deviceRights(db, principal, serial);
        if (!rights || (!rights.sees && !staff))
          throw new ApiError(
            404,
            'not_found',
            `serials.${index}: device ${serial} not found`,
            `serials.${index}`,
          );
        if (!rights.configures && !staff)
          throw forbidden(
            `serials.${index}: writing to ${serial} needs the configurator or installer role on its site`,
            'service_comms_forbidden',
          );
        devices.push(rights);
      }
      const product = await catalogue.product(template.modelId);
      if (!product)
        throw new ApiError(
          409,
          'template_product_unknown',
          `The catalogue has no ${template.modelId} any more`,
        );
      const results: DeviceApplyResult[] = [];
      let stopped = false;
      for (const device of devices) {
        if (stopped) {
          results.push({
            serial: device.serial,
            outcome: 'skipped',
            reason: 'an earlier device failed',
            changes: [],
          });
          continue;
        }
        const outcome = await applyToDevice(ctx, codec, product, principal, device, template, body.password);
        results.push(outcome);
        if ((outcome.outcome === 'failed' || outcome.outcome === 'refused') && !body.continueOnFailure)
          stopped = true;
      }
      return c.json({ template: { id: template.id, name: template.name }, results });
    },
  );
  return app;
}
