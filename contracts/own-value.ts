/**
 * The value a record holds under `key` as its own entry, never one it inherits: a record read from
 * JSON (the catalogue's models, the convert list) answers `undefined` for `constructor`,
 * `toString`, `valueOf`, `hasOwnProperty` or `__proto__` unless it has such an entry itself.
 * Every lookup by a name a caller chose goes through this.
 * @example ownValue({ 'HX-5000': entry }, 'constructor') // undefined
 */
export function ownValue<T>(
  record: Readonly<Record<string, T>> | null | undefined,
  key: string,
): T | undefined {
  return record != null && Object.hasOwn(record, key) ? record[key] : undefined;
}
