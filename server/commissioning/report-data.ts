import type { Kysely } from 'kysely';
import { EXCLUDED_GROUPS } from '../../src/device-config/excluded-groups.ts';
import { buildForm } from '../../src/device-config/form-fields.ts';
import type { Database } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import type { ServiceComms } from '../service-comms/service-comms.ts';
import { currentInstallation } from './installations.ts';
import type { ProductCatalogue } from './product-catalogue.ts';

/** One setting as last written and verified: from the newest history record that changed it. */
export interface ReportSetting {
  group: string;
  label: string;
  value: string;
  by: string;
  at: Date;
}

export interface ReportDevice {
  serial: string;
  modelId: string;
  modelName: string;
  name: string;
  installedAt: Date;
  online: boolean;
  /** The template of the newest write that applied one, if any. */
  template: string | null;
  /** At most {@link REPORT_LIMITS}.settingsPerDevice, the product form's settings first. */
  settings: ReportSetting[];
  /** Settings written and verified beyond those listed: the full history is in the app. */
  moreSettings: number;
  /** Where the device's whole history is read (its page in the app). */
  historyUrl: string;
}

/**
 * What one report holds at most, so that any site's report stays a document a person can read and
 * its build a bounded piece of a worker thread's time (the largest, 100 devices of 60 settings,
 * is about 150 pages and some seconds of CPU): settings beyond these are counted, and the report
 * says where their whole history is. Every bundled product's form has fewer than 40 settings.
 */
export const REPORT_LIMITS = { settingsPerDevice: 60, devices: 100 } as const;

/** Everything the commissioning report of a site shows. */
export interface ReportData {
  site: { id: number; name: string; address: string; timeZone: string };
  owner: { name: string; email: string } | null;
  installer: { name: string; email: string } | null;
  /** The installer company the site belongs to, with its logo as a data URL (PNG or JPEG). */
  company: { name: string; address: string; logo: string | null } | null;
  date: Date;
  /** At most {@link REPORT_LIMITS}.devices, in the order they were installed. */
  devices: ReportDevice[];
  /** Devices on the site beyond those listed, and where the site's page is. */
  moreDevices: number;
  siteUrl: string;
}

const OTHER_GROUP = 'Other settings';

/**
 * The settings of a device as last written and verified on this site: for each setting, the
 * newest history record of the device's installation here that changed it, with who wrote it and
 * when, in the order of the product's form. What was written before (another site, another
 * company) is not this site's (`installations.ts`).
 */
async function lastWritten(
  db: Kysely<Database>,
  catalogue: ProductCatalogue,
  serial: string,
  modelId: string,
): Promise<{ settings: ReportSetting[]; moreSettings: number; template: string | null }> {
  const installation = await currentInstallation(db, serial);
  const records = await db
    .selectFrom('config_history')
    .select(['user_email', 'template_name', 'written_at', 'changes'])
    .where('installation_id', '=', installation ?? -1)
    .orderBy('seq', 'desc')
    .limit(500)
    .execute();
  const newest = new Map<string, ReportSetting>();
  for (const record of records) {
    const changes = typeof record.changes === 'string' ? JSON.parse(record.changes) : record.changes;
    for (const change of changes as { field: string; label: string; newValue: string }[])
      if (!newest.has(change.field))
        newest.set(change.field, {
          group: OTHER_GROUP,
          label: change.label,
          value: change.newValue,
          by: record.user_email,
          at: new Date(record.written_at),
        });
  }
  const template = records.find((record) => record.template_name)?.template_name ?? null;
  const product = await catalogue.product(modelId).catch(() => undefined);
  const order = product
    ? buildForm(product.config, { raw: {}, values: {} }, { excludedGroups: EXCLUDED_GROUPS }).flatMap(
        (group) => group.fields.map((field) => ({ field: field.name, group: group.title, unit: field.unit })),
      )
    : [];
  const settings: ReportSetting[] = [];
  for (const { field, group, unit } of order) {
    const setting = newest.get(field);
    if (!setting) continue;
    // Numbers with the unit the form shows them in; text (a choice, a name) as it is.
    const value =
      unit && setting.value !== '' && Number.isFinite(Number(setting.value))
        ? `${setting.value} ${unit}`
        : setting.value;
    settings.push({ ...setting, group, value });
    newest.delete(field);
  }
  const all = [...settings, ...newest.values()];
  return {
    settings: all.slice(0, REPORT_LIMITS.settingsPerDevice),
    moreSettings: Math.max(0, all.length - REPORT_LIMITS.settingsPerDevice),
    template,
  };
}

/** A site's commissioning report, read from the database (the caller's access is checked). */
export async function reportData(
  db: Kysely<Database>,
  comms: ServiceComms,
  catalogue: ProductCatalogue,
  siteId: number,
  appUrl: string,
): Promise<ReportData> {
  const site = await db
    .selectFrom('sites')
    .leftJoin('users as owner', 'owner.id', 'sites.owner_id')
    .leftJoin('users as installer', 'installer.id', 'sites.installer_id')
    .leftJoin('companies', 'companies.id', 'sites.company_id')
    .select([
      'companies.name as company_name',
      'companies.address as company_address',
      'companies.logo as company_logo',
      'companies.logo_type as company_logo_type',
      'sites.id',
      'sites.name',
      'sites.display_address',
      'sites.time_zone',
      'owner.display_name as owner_name',
      'owner.main_email as owner_email',
      'installer.display_name as installer_name',
      'installer.main_email as installer_email',
    ])
    .where('sites.id', '=', siteId)
    .executeTakeFirst();
  if (!site) throw notFound('Site');
  const rows = await db
    .selectFrom('devices')
    .leftJoin('device_presence', (join) =>
      join.onRef('device_presence.device_id', '=', 'devices.id').on(comms.presence.onlineCondition()),
    )
    .select([
      'devices.serial',
      'devices.model_id',
      'devices.name',
      'devices.installed_at',
      'device_presence.serial as online_serial',
    ])
    .where('devices.site_id', '=', siteId)
    .orderBy('devices.id')
    .execute();
  const devices: ReportDevice[] = [];
  for (const row of rows.slice(0, REPORT_LIMITS.devices)) {
    const entry = await catalogue.entry(row.model_id).catch(() => undefined);
    devices.push({
      serial: row.serial,
      modelId: row.model_id,
      modelName: entry?.name ?? row.model_id,
      name: row.name,
      installedAt: new Date(row.installed_at),
      online: row.online_serial !== null,
      historyUrl: `${appUrl}/device-details/${encodeURIComponent(row.model_id)}?serial=${encodeURIComponent(row.serial)}`,
      ...(await lastWritten(db, catalogue, row.serial, row.model_id)),
    });
  }
  const installerEmail = site.installer_email;
  return {
    site: { id: site.id, name: site.name, address: site.display_address, timeZone: site.time_zone },
    owner: site.owner_email ? { name: site.owner_name ?? '', email: site.owner_email } : null,
    installer: installerEmail ? { name: site.installer_name ?? '', email: installerEmail } : null,
    company:
      site.company_name === null
        ? null
        : {
            name: site.company_name,
            address: site.company_address ?? '',
            logo:
              site.company_logo && site.company_logo_type
                ? `data:${site.company_logo_type};base64,${Buffer.from(site.company_logo).toString('base64')}`
                : null,
          },
    date: new Date(),
    devices,
    moreDevices: Math.max(0, rows.length - REPORT_LIMITS.devices),
    siteUrl: `${appUrl}/site-details/${site.id}`,
  };
}
