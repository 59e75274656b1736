import { Badge } from '@mantine/core';
import type { AlarmSeverity, AlarmState } from '../../../contracts/monitoring.ts';

// Dark enough for 4.5:1 with white text (Mantine's orange and yellow are not, even at shade 9).
const SEVERITY_COLOR: Record<AlarmSeverity, string> = {
  critical: 'red.9',
  warning: '#a34700',
  info: 'blue.9',
};

export const SEVERITY_LABEL: Record<AlarmSeverity, string> = {
  critical: 'Critical',
  warning: 'Warning',
  info: 'Info',
};

export const STATE_LABEL: Record<AlarmState, string> = {
  active: 'Active',
  acknowledged: 'Acknowledged',
  cleared: 'Cleared',
};

const STATE_COLOR: Record<AlarmState, string> = {
  active: 'red.9',
  acknowledged: '#7a4a00',
  cleared: 'gray.7',
};

/** How serious an alarm is, in words and colour (dark enough to read white text on). */
export function SeverityBadge({ severity }: { severity: AlarmSeverity }) {
  return (
    <Badge color={SEVERITY_COLOR[severity]} variant="filled" size="sm" style={{ flexShrink: 0 }}>
      {SEVERITY_LABEL[severity]}
    </Badge>
  );
}

/** Where an alarm is in its lifecycle. */
export function AlarmStateBadge({ state }: { state: AlarmState }) {
  return (
    <Badge color={STATE_COLOR[state]} variant="outline" size="sm" style={{ flexShrink: 0 }}>
      {STATE_LABEL[state]}
    </Badge>
  );
}
