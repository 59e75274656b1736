/**
 * Signal strength as the panel shows it: `N/A` with no device or a positive reading, otherwise the
 * value followed by ` dBa` (specification §8).
 * @example signalText(-61) // '-61 dBa'
 */
export function signalText(rssi: number | undefined): string {
  return rssi === undefined || !Number.isFinite(rssi) || rssi > 0 ? 'N/A' : `${rssi} dBa`;
}
