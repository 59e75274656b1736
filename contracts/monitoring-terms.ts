/**
 * Words the catalogue's monitoring part and the monitoring service share: alarm severities and the
 * roles an item plays for a site.
 */

/** How serious an alarm is, least first. */
export const ALARM_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type AlarmSeverity = (typeof ALARM_SEVERITIES)[number];

/**
 * What an item means for a site, so that screens and site totals read every product alike. Power
 * roles are in W: `grid` is positive while importing, `battery` positive while charging.
 * `producedEnergy` is an energy counter (kWh) of what the device produced.
 */
export const MONITORING_ROLES = [
  'production',
  'consumption',
  'grid',
  'battery',
  'soc',
  'producedEnergy',
] as const;
export type MonitoringRole = (typeof MONITORING_ROLES)[number];

/** The unit an item of each role must have. */
export const ROLE_UNITS: Readonly<Record<MonitoringRole, string>> = {
  production: 'W',
  consumption: 'W',
  grid: 'W',
  battery: 'W',
  soc: '%',
  producedEnergy: 'kWh',
};
