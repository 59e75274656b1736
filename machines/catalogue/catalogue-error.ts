import { errorMessage } from '../../contracts/error-message.ts';

/** Prefix of every catalogue download failure: the specification's words (§8). */
export const CATALOGUE_ERROR = 'ERROR getting Devices List.';

/**
 * A catalogue download that did not answer 200 with a valid list. `serialized` is the JSON
 * of what came back (status, status text, body) or of the network failure.
 */
export class CatalogueDownloadError extends Error {
  readonly serialized: string;

  constructor(response: unknown) {
    const serialized = safeStringify(response);
    super(`${CATALOGUE_ERROR} ${serialized}`);
    this.name = 'CatalogueDownloadError';
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

/** The message the catalogue machine shows for any download failure. */
export function catalogueErrorMessage(error: unknown): string {
  if (error instanceof CatalogueDownloadError) return error.message;
  const message = errorMessage(error);
  return `${CATALOGUE_ERROR} ${safeStringify({ message })}`;
}
