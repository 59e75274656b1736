const WORDS: Record<string, string> = {
  pv: 'PV',
  soc: 'state of charge',
  soh: 'state of health',
  ac: 'AC',
  dc: 'DC',
  mppt: 'MPPT',
};

/**
 * A metric's name as words: `pvPower` → "PV power", `batterySoc` → "Battery state of charge",
 * `tempCellHigh` → "Temp cell high".
 */
export function metricLabel(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_]+/)
    .filter(Boolean)
    .map((word) => WORDS[word.toLowerCase()] ?? word.toLowerCase());
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
