import type { Kysely, Selectable } from 'kysely';
import type { TemplateSettings } from '../../contracts/config-templates.ts';
import type { Principal } from '../auth/access-tokens.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';

// The queries of settings templates; who may reach one is `server/access/template-access.ts`.

type TemplateRow = Selectable<Database['config_templates']>;

/** How many templates one list answers at most. */
const LIST_LIMIT = 500;

/** A company's templates, of one product when asked, by product, then name. */
export function listTemplates(
  db: Kysely<Database>,
  company: string,
  modelId?: string,
): Promise<TemplateRow[]> {
  let query = db.selectFrom('config_templates').selectAll().where('company', '=', company);
  if (modelId) query = query.where('model_id', '=', modelId);
  return query.orderBy('model_id').orderBy('name').orderBy('id').limit(LIST_LIMIT).execute();
}

/** A new template, written by `by` (the unique index refuses a name the product has in the company). */
export function insertTemplate(
  db: Kysely<Database>,
  by: Principal,
  template: { company: string; name: string; modelId: string; settings: TemplateSettings },
): Promise<TemplateRow> {
  return db
    .insertInto('config_templates')
    .values({
      company: template.company,
      name: template.name,
      model_id: template.modelId,
      settings: JSON.stringify(template.settings),
      created_by: by.id,
      created_by_email: by.email,
      updated_by_email: by.email,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A template renamed, given new settings, or both, by `by`.
 * @throws {ApiError} 404 when it was deleted meanwhile.
 */
export async function updateTemplate(
  db: Kysely<Database>,
  by: Principal,
  id: number,
  change: { name?: string; settings?: TemplateSettings },
): Promise<TemplateRow> {
  const row = await db
    .updateTable('config_templates')
    .set({
      ...(change.name !== undefined && { name: change.name }),
      ...(change.settings !== undefined && { settings: JSON.stringify(change.settings) }),
      updated_by_email: by.email,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Template');
  return row;
}

/** A template deleted (the history of what it wrote stays). */
export async function deleteTemplate(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('config_templates').where('id', '=', id).execute();
}
