import {
  type ConfigTemplate,
  MAX_TEMPLATE_FILE_BYTES,
  TEMPLATE_FILE_FORMAT,
  type TemplateFile,
  templateFileSchema,
} from '../../../../contracts/config-templates.ts';
import { checkTemplate } from '../../../device-config/config-template.ts';
import type { FormGroupModel } from '../../../device-config/form-fields.ts';

/** A template as the file it is exported to. */
export function templateFile(template: ConfigTemplate, productName: string, now = new Date()): TemplateFile {
  return {
    format: TEMPLATE_FILE_FORMAT,
    version: 1,
    name: template.name,
    modelId: template.modelId,
    productName,
    settings: template.settings,
    exportedAt: now.toISOString(),
  };
}

/** A file name for a template: `template-hx-5000-standard-hybrid.json`. */
export function templateFileName(template: Pick<ConfigTemplate, 'name' | 'modelId'>): string {
  const slug = (text: string) =>
    text
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase();
  return `template-${slug(template.modelId)}-${slug(template.name) || 'settings'}.json`;
}

export type FileCheck = { ok: true; file: TemplateFile } | { ok: false; reason: string };

/**
 * Check an imported file: JSON, a settings template by its schema, for this product, and every
 * setting one this product has, within its limits. The reason names what is wrong.
 * @example readTemplateFile(text, 'HX-5000', name, groups) // { ok: false, reason: 'This file holds settings for the Basalt BX-10 …' }
 */
export function readTemplateFile(
  text: string,
  modelId: string,
  modelName: (modelId: string) => string,
  groups: readonly FormGroupModel[],
): FileCheck {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: `The file is not JSON (${error instanceof Error ? error.message : String(error)}).`,
    };
  }
  const parsed = templateFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'the file';
    return {
      ok: false,
      reason: `The file is not a settings template: ${where}: ${issue?.message ?? 'invalid'}.`,
    };
  }
  const file = parsed.data;
  if (file.modelId !== modelId)
    return {
      ok: false,
      reason: `This file holds settings for the ${modelName(file.modelId)} (${file.modelId}), not the ${modelName(modelId)} (${modelId}).`,
    };
  const problems = checkTemplate(groups, file.settings);
  if (problems.length > 0)
    return {
      ok: false,
      reason: `The file's settings do not fit the ${modelId}: ${problems.map((p) => p.message).join('; ')}.`,
    };
  return { ok: true, file };
}

/**
 * Check a file picked for import: one larger than {@link MAX_TEMPLATE_FILE_BYTES} is refused by
 * its size, unread (a template file is a few KiB; a big file would only make the page wait); any
 * other is read and checked as {@link readTemplateFile} does.
 */
export async function readTemplateUpload(
  file: Blob,
  modelId: string,
  modelName: (modelId: string) => string,
  groups: readonly FormGroupModel[],
): Promise<FileCheck> {
  if (file.size > MAX_TEMPLATE_FILE_BYTES)
    return {
      ok: false,
      reason: `The file is ${Math.ceil(file.size / 1024)} KiB; a settings template file is at most ${MAX_TEMPLATE_FILE_BYTES / 1024} KiB. Pick the file exported from Fleet Manager.`,
    };
  return readTemplateFile(await file.text(), modelId, modelName, groups);
}
