/** Prefix of every devices-list download failure (specification §8). */
export const DEVICES_LIST_ERROR = 'ERROR getting Devices List.';

/**
 * A devices-list download that did not answer 200 with a valid list. `serialized` is the JSON
 * of what came back (status, status text, body) or of the network failure.
 */
export class DevicesListDownloadError extends Error {
  readonly serialized: string;

  constructor(response: unknown) {
    const serialized = safeStringify(response);
    super(`${DEVICES_LIST_ERROR} ${serialized}`);
    this.name = 'DevicesListDownloadError';
    this.serialized = serialized;
  }
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The message the devices-list machine shows for any download failure. */
export function devicesListErrorMessage(error: unknown): string {
  if (error instanceof DevicesListDownloadError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `${DEVICES_LIST_ERROR} ${safeStringify({ message })}`;
}
