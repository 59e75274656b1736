import { provisioningSchema } from '../../contracts/claims.ts';
import {
  type ConfigTemplate,
  type RemoteApplyRequest,
  remoteApplyResultSchema,
  type TemplateCreate,
  type TemplateUpdate,
  templateListSchema,
  templateSchema,
} from '../../contracts/config-templates.ts';
import { deviceSchema } from '../../contracts/devices.ts';
import {
  type AuditRecord,
  auditListSchema,
  type ClaimRequest,
  claimedDeviceSchema,
  type InstallRequest,
  type InstallUpdate,
  installedDeviceSchema,
} from '../../contracts/installs.ts';
import { acceptedSchema } from '../../contracts/users.ts';
import type { ApiClient, ApiRequestOptions } from './api-client.ts';

/**
 * Commissioning calls of the configuration service (docs/api.md, "Commissioning"): devices on
 * sites, the record of changes, the commissioning report and settings templates. Every function
 * throws the client's ApiError, whose message is the service's.
 */

/** `POST /fleet/sites/{siteId}/installs`: the device and its secret, shown once. */
export async function installDevice(api: ApiClient, siteId: number, body: InstallRequest) {
  return installedDeviceSchema.parse(await api(`/fleet/sites/${siteId}/installs`, { method: 'POST', body }));
}

/** `POST /fleet/sites/{siteId}/claims`: the device claimed for the site with its label's claim code. */
export async function claimDevice(api: ApiClient, siteId: number, body: ClaimRequest) {
  return claimedDeviceSchema.parse(await api(`/fleet/sites/${siteId}/claims`, { method: 'POST', body }));
}

/**
 * `POST /fleet/devices/{serial}/provisioning`: a new service-comms secret and the service's
 * address, to be written to the device over Bluetooth (the old secret stops working).
 */
export async function issueProvisioning(api: ApiClient, serial: string) {
  return provisioningSchema.parse(await api(`/fleet/devices/${serial}/provisioning`, { method: 'POST' }));
}

/** `PUT /fleet/installs/{deviceId}`: move, rename, or both. */
export async function updateInstall(api: ApiClient, deviceId: number, body: InstallUpdate) {
  return deviceSchema.parse(await api(`/fleet/installs/${deviceId}`, { method: 'PUT', body }));
}

/**
 * `POST /fleet/installs/{deviceId}/replace`: the new unit (claimed, with the claim code on its
 * label when it has one) and its secret.
 */
export async function replaceInstall(api: ApiClient, deviceId: number, serial: string, claimCode?: string) {
  const body = claimCode ? { serial, claimCode } : { serial };
  return installedDeviceSchema.parse(
    await api(`/fleet/installs/${deviceId}/replace`, { method: 'POST', body }),
  );
}

/** `DELETE /fleet/installs/{deviceId}`. */
export async function removeInstall(api: ApiClient, deviceId: number): Promise<void> {
  await api(`/fleet/installs/${deviceId}`, { method: 'DELETE' });
}

/** The recorded changes of a site or of a device, newest first. */
export async function fetchAudit(
  api: ApiClient,
  of: { siteId: number } | { serial: string },
  signal?: AbortSignal,
): Promise<AuditRecord[]> {
  const path = 'siteId' in of ? `/fleet/sites/${of.siteId}/audit` : `/fleet/devices/${of.serial}/audit`;
  return auditListSchema.parse(await api(path, { query: { limit: 100 }, ...(signal ? { signal } : {}) }))
    .items;
}

/** `GET /fleet/sites/{siteId}/commissioning-report`: the PDF. */
export async function fetchReport(api: ApiClient, siteId: number, signal?: AbortSignal): Promise<Blob> {
  // ofetch hands the body over as it came when asked for a blob.
  const options = { responseType: 'blob', signal } as unknown as ApiRequestOptions;
  return api<Blob>(`/fleet/sites/${siteId}/commissioning-report`, options);
}

/** `POST /fleet/sites/{siteId}/commissioning-report/send`: the service's words. */
export async function sendReport(api: ApiClient, siteId: number, signal?: AbortSignal): Promise<string> {
  return acceptedSchema.parse(
    await api(`/fleet/sites/${siteId}/commissioning-report/send`, { method: 'POST', signal }),
  ).message;
}

/** The company's templates of one product. */
export async function fetchTemplates(api: ApiClient, modelId: string): Promise<ConfigTemplate[]> {
  return templateListSchema.parse(await api('/fleet/config-templates', { query: { modelId } })).items;
}

export async function createTemplate(api: ApiClient, body: TemplateCreate): Promise<ConfigTemplate> {
  return templateSchema.parse(await api('/fleet/config-templates', { method: 'POST', body }));
}

export async function updateTemplate(
  api: ApiClient,
  id: number,
  body: TemplateUpdate,
): Promise<ConfigTemplate> {
  return templateSchema.parse(await api(`/fleet/config-templates/${id}`, { method: 'PUT', body }));
}

export async function deleteTemplate(api: ApiClient, id: number): Promise<void> {
  await api(`/fleet/config-templates/${id}`, { method: 'DELETE' });
}

/** `POST /fleet/config-templates/{id}/apply`: one result per device. */
export async function applyTemplateRemotely(api: ApiClient, id: number, body: RemoteApplyRequest) {
  return remoteApplyResultSchema.parse(
    await api(`/fleet/config-templates/${id}/apply`, { method: 'POST', body }),
  );
}
