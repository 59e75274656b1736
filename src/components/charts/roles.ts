import type { MonitoringRole } from '../../../contracts/monitoring-terms.ts';

/** How a role looks on every screen: its name and its colour (lines, bars, the power flow). */
export interface RoleLook {
  name: string;
  /** Dark enough against white for lines, bars and their legend (3:1 for graphics). */
  colour: string;
}

/**
 * One name and one colour per role, everywhere: the site's charts, a device's charts and tiles,
 * the power flow and the energy balance read alike, whatever the product calls its items.
 */
export const ROLE_LOOK: Readonly<Record<MonitoringRole, RoleLook>> = {
  production: { name: 'Solar production', colour: '#b45309' },
  consumption: { name: 'Home consumption', colour: '#1864ab' },
  grid: { name: 'Grid', colour: '#6741d9' },
  battery: { name: 'Battery', colour: '#2b8a3e' },
  soc: { name: 'Battery charge', colour: '#0b7285' },
  producedEnergy: { name: 'Produced energy', colour: '#b45309' },
};

/** Colours of lines without a role, apart from the roles'. */
export const OTHER_COLOURS = ['#495057', '#c2255c', '#5c940d', '#364fc7'] as const;

/** Below this many watts a flow is idle: no direction to name. */
export const IDLE_W = 10;

/** What a power's sign means for a role, in words: "importing", "charging". */
export function directionWord(role: MonitoringRole, watts: number): string {
  const idle = Math.abs(watts) < IDLE_W;
  switch (role) {
    case 'grid':
      return idle ? 'idle' : watts > 0 ? 'importing' : 'exporting';
    case 'battery':
      return idle ? 'idle' : watts > 0 ? 'charging' : 'discharging';
    case 'production':
      return idle ? 'not producing' : 'producing';
    case 'consumption':
      return idle ? 'idle' : 'using';
    default:
      return '';
  }
}
