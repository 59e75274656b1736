import type { ActorRefFrom } from 'xstate';
import type { remoteDebuggerMachine } from '../../../machines/remote-debugger/debugger-machine.ts';

/** The running console the view pieces read from and send to. */
export type DebuggerActor = ActorRefFrom<typeof remoteDebuggerMachine>;
