import { createMachine } from 'xstate';

/**
 * Abstract model of an alarm's life as a device and the people who see it live it: the condition
 * starts (a fault code, a value past its limit, or silence), someone acknowledges it, the condition
 * ends, and later starts again. No actors or delays. `tests/server/alarm-lifecycle-model.test.ts`
 * runs every path against the real rules of the monitoring service (readings through the ingest,
 * acknowledging through the API, the offline sweep), each state checked against the stored alarms,
 * their transitions and their mail. What may not happen is checked in the states: no second alarm
 * while the condition holds, no second acknowledgement, nothing acknowledged once cleared.
 */
export const alarmLifecycleModel = createMachine({
  id: 'alarmLifecycleModel',
  initial: 'quiet',
  states: {
    quiet: {
      on: { 'condition.starts': 'active' },
    },
    active: {
      on: { 'alarm.acknowledge': 'acknowledged', 'condition.ends': 'cleared' },
    },
    acknowledged: {
      on: { 'condition.ends': 'cleared' },
    },
    cleared: {
      on: { 'condition.starts': 'raisedAgain' },
    },
    raisedAgain: {},
  },
});
