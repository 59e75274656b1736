import { assign, setup } from 'xstate';

/**
 * Events of an alarm's life. `alarm.acknowledge`: someone who sees the device takes it on, with a
 * note. `alarm.clear`: the condition that raised it ended (the device reported again, the code
 * went back, the value came back inside its limit). Times are epoch milliseconds.
 */
export type AlarmLifecycleEvent =
  | { type: 'alarm.acknowledge'; by: number; at: number; note: string }
  | { type: 'alarm.clear'; at: number };

export interface AlarmLifecycleContext {
  raisedAt: number;
  acknowledgedBy: number | null;
  acknowledgedAt: number | null;
  note: string | null;
  clearedAt: number | null;
}

/** The states an alarm is stored in (`alarms.state`). */
export type AlarmLifecycleState = 'active' | 'acknowledged' | 'cleared';

/**
 * An alarm from raised to cleared: it is raised `active`; acknowledging it (once, while active)
 * records who, when and why; it clears by itself when its condition ends, acknowledged or not, and
 * a cleared alarm is done (the condition coming back raises a new alarm). The server stores each
 * state this machine enters, with its time (server/monitoring/alarms/alarm-store.ts).
 */
export const alarmLifecycleMachine = setup({
  types: {
    context: {} as AlarmLifecycleContext,
    events: {} as AlarmLifecycleEvent,
    input: {} as { raisedAt: number },
  },
  actions: {
    recordAcknowledgement: assign(({ event }) =>
      event.type === 'alarm.acknowledge'
        ? { acknowledgedBy: event.by, acknowledgedAt: event.at, note: event.note }
        : {},
    ),
    recordClearing: assign(({ event }) => (event.type === 'alarm.clear' ? { clearedAt: event.at } : {})),
  },
}).createMachine({
  id: 'alarmLifecycle',
  context: ({ input }) => ({
    raisedAt: input.raisedAt,
    acknowledgedBy: null,
    acknowledgedAt: null,
    note: null,
    clearedAt: null,
  }),
  initial: 'active',
  states: {
    active: {
      on: {
        'alarm.acknowledge': { target: 'acknowledged', actions: 'recordAcknowledgement' },
        'alarm.clear': { target: 'cleared', actions: 'recordClearing' },
      },
    },
    acknowledged: {
      on: { 'alarm.clear': { target: 'cleared', actions: 'recordClearing' } },
    },
    cleared: { type: 'final' },
  },
});
