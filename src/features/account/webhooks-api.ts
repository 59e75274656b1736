import {
  type CreatedWebhook,
  type CreateWebhookRequest,
  createdWebhookSchema,
  type Webhook,
  type WebhookDelivery,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookSchema,
} from '../../../contracts/webhooks.ts';
import type { ApiClient } from '../../api/api-client.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});
const path = (id: string) => `/fleet/webhooks/${encodeURIComponent(id)}`;

/** `GET /fleet/webhooks`: the caller's webhooks, newest first. @throws ApiError */
export async function fetchWebhooks(api: ApiClient, signal?: AbortSignal): Promise<Webhook[]> {
  return webhookListSchema.parse(await api('/fleet/webhooks', withSignal(signal))).webhooks;
}

/** `POST /fleet/webhooks`: a new webhook, with its signing secret this once. @throws ApiError */
export async function createWebhook(
  api: ApiClient,
  body: CreateWebhookRequest,
  signal?: AbortSignal,
): Promise<CreatedWebhook> {
  return createdWebhookSchema.parse(
    await api('/fleet/webhooks', { method: 'POST', body, ...withSignal(signal) }),
  );
}

/** `PUT /fleet/webhooks/{id}` with `disabled`: switched off or on. @throws ApiError */
export async function switchWebhook(
  api: ApiClient,
  id: string,
  disabled: boolean,
  signal?: AbortSignal,
): Promise<Webhook> {
  return webhookSchema.parse(
    await api(path(id), { method: 'PUT', body: { disabled }, ...withSignal(signal) }),
  );
}

/** `DELETE /fleet/webhooks/{id}`. @throws ApiError */
export async function deleteWebhook(api: ApiClient, id: string, signal?: AbortSignal): Promise<void> {
  await api(path(id), { method: 'DELETE', ...withSignal(signal) });
}

/** `GET /fleet/webhooks/{id}/deliveries`: the newest deliveries with their tries. @throws ApiError */
export async function fetchDeliveries(
  api: ApiClient,
  id: string,
  signal?: AbortSignal,
): Promise<WebhookDelivery[]> {
  return webhookDeliveryListSchema.parse(await api(`${path(id)}/deliveries`, withSignal(signal))).deliveries;
}

/** `POST /fleet/webhooks/{id}/test`: a webhook.test event sent now. @throws ApiError */
export async function testWebhook(api: ApiClient, id: string, signal?: AbortSignal): Promise<void> {
  await api(`${path(id)}/test`, { method: 'POST', ...withSignal(signal) });
}

/** `POST /fleet/webhooks/deliveries/{id}/retry`: one delivery sent again now. @throws ApiError */
export async function resendDelivery(
  api: ApiClient,
  deliveryId: number,
  signal?: AbortSignal,
): Promise<void> {
  await api(`/fleet/webhooks/deliveries/${deliveryId}/retry`, { method: 'POST', ...withSignal(signal) });
}
