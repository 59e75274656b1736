import {
  type ApiKey,
  apiKeyListSchema,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  createdApiKeySchema,
} from '../../../contracts/api-keys.ts';
import type { ApiClient } from '../../api/api-client.ts';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** `GET /fleet/api-keys`: the caller's keys, newest first. @throws ApiError */
export async function fetchApiKeys(api: ApiClient, signal?: AbortSignal): Promise<ApiKey[]> {
  return apiKeyListSchema.parse(await api('/fleet/api-keys', withSignal(signal))).keys;
}

/** `POST /fleet/api-keys`: a new key, with its text this once. @throws ApiError */
export async function createApiKey(
  api: ApiClient,
  body: CreateApiKeyRequest,
  signal?: AbortSignal,
): Promise<CreatedApiKey> {
  return createdApiKeySchema.parse(
    await api('/fleet/api-keys', { method: 'POST', body, ...withSignal(signal) }),
  );
}

/** `DELETE /fleet/api-keys/{id}`: the key stops working everywhere. @throws ApiError */
export async function revokeApiKey(api: ApiClient, id: string, signal?: AbortSignal): Promise<void> {
  await api(`/fleet/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE', ...withSignal(signal) });
}
