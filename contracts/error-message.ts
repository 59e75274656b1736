/**
 * The words of anything thrown: an Error's message, or the thrown value as text. One helper for the
 * app, the machines and the server, so a failure reads the same wherever it is shown or logged
 * (it sits with the contracts because they are the one module all three import).
 *
 * @example errorMessage(new Error('HTTP 404')) // 'HTTP 404'
 * @example errorMessage('offline')            // 'offline'
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
