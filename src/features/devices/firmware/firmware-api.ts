import { firmwareKeysSchema, firmwareListSchema } from '../../../../contracts/firmware.ts';
import type { ApiClient, ApiRequestOptions } from '../../../api/api-client.ts';

/** `GET /fleet/firmware?model=`: the model's images, newest first. @throws ApiError */
export async function fetchFirmwareImages(api: ApiClient, modelId: string, signal?: AbortSignal) {
  return firmwareListSchema.parse(await api('/fleet/firmware', { query: { model: modelId }, signal })).images;
}

/** `GET /fleet/firmware/{id}/image`: the image file's bytes. @throws ApiError */
export async function fetchFirmwareBytes(api: ApiClient, id: number): Promise<Uint8Array> {
  const options = { responseType: 'arrayBuffer' } as unknown as ApiRequestOptions;
  return new Uint8Array(await api<ArrayBuffer>(`/fleet/firmware/${id}/image`, options));
}

/** `GET /fleet/firmware/keys`: the trusted public keys, as DER. @throws ApiError */
export async function fetchFirmwareKeys(api: ApiClient, signal?: AbortSignal): Promise<Uint8Array[]> {
  const { keys } = firmwareKeysSchema.parse(await api('/fleet/firmware/keys', { signal }));
  return keys.map((k) => Uint8Array.from(atob(k.publicKey), (c) => c.charCodeAt(0)));
}
