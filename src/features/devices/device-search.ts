// Apart from the loader: the route tree (part of the sign-in screen's scripts) reads this one.
/** Device details search: `?serial=HX5K-24-000123` picks one device of the model in the path. */
export function deviceSearch(search: Record<string, unknown>): { serial?: string } {
  const serial = typeof search.serial === 'string' ? search.serial.trim().toUpperCase() : '';
  return serial ? { serial } : {};
}
