import { createMachine } from 'xstate';

/**
 * Abstract model of the Configure session (the parent of the connection, password, write, command
 * and history machines), as a person meets it: connecting over Bluetooth or to the demo device (or
 * the chooser closed, or Bluetooth off), unlocking, the form following the device until a field is
 * edited, writes verified (recorded for a real device only), refused at the form or by the encoder,
 * lost with the link, commands, the history, dropped links coming back or not, leaving the page.
 * Driven against the real machine by `configure-session-model-driver.ts`.
 */
export const configureSessionModel = createMachine({
  id: 'configureSessionModel',
  initial: 'notConnected',
  states: {
    notConnected: {
      on: {
        'chooser.closed': 'chooserClosed',
        'connect.fails': 'failed',
        'bluetooth.connect': 'locked',
        'demo.connect': 'demoLocked',
      },
    },
    chooserClosed: { on: { 'bluetooth.connect': 'locked' } },
    failed: { on: { 'failure.dismissed': 'failureDismissed' } },
    failureDismissed: {},
    locked: { on: { 'password.right': 'following' } },
    following: {
      on: {
        'interval.elapsed': 'followedDevice',
        'field.edited': 'edited',
        'write.asRead': 'clockSet',
        'device.oddName': 'oddNameRefused',
        'link.dropped': 'lostFollowing',
        'command.run': 'commandDone',
        'command.cancelled': 'commandCancelled',
        'provision.given': 'provisioned',
        'template.written': 'templateApplied',
        'template.linkDropped': 'templateLost',
        'page.left': 'pageLeft',
      },
    },
    templateApplied: {},
    templateLost: {},
    followedDevice: {},
    clockSet: { on: { 'history.refresh': 'historyRead', 'result.dismissed': 'resultDismissed' } },
    historyRead: { on: { 'history.more': 'olderAsked' } },
    olderAsked: {},
    resultDismissed: {},
    oddNameRefused: {},
    lostFollowing: {
      on: {
        'link.back': 'backFollowing',
        'link.staysAway': 'reconnectFailed',
        'ble.disconnect': 'disconnectedWhileLost',
      },
    },
    backFollowing: {},
    reconnectFailed: { on: { 'session.retry': 'backFollowing' } },
    disconnectedWhileLost: {},
    commandDone: { on: { 'command.dismissed': 'commandDismissed' } },
    commandDismissed: {},
    commandCancelled: {},
    provisioned: { on: { 'provision.dismissed': 'provisionDismissed' } },
    provisionDismissed: {},
    pageLeft: {},
    edited: {
      on: {
        'interval.elapsed': 'editsKept',
        'write.valid': 'verified',
        'write.outOfRange': 'refusedAtForm',
        'write.impossibleDate': 'refusedByEncoder',
        'write.linkDropped': 'lostWithEdits',
        'form.revert': 'reverted',
        'template.written': 'templateOverEdits',
      },
    },
    templateOverEdits: {},
    editsKept: { on: { 'write.valid': 'verified' } },
    verified: { on: { 'ble.disconnect': 'disconnected' } },
    disconnected: {},
    refusedAtForm: { on: { 'form.revert': 'reverted' } },
    refusedByEncoder: {},
    lostWithEdits: { on: { 'link.back': 'backWithEdits' } },
    backWithEdits: { on: { 'write.valid': 'verified' } },
    reverted: {},
    demoLocked: { on: { 'password.right': 'demoFollowing' } },
    demoFollowing: { on: { 'field.edited': 'demoEdited', 'provision.onDemo': 'demoNotProvisioned' } },
    demoNotProvisioned: {},
    demoEdited: { on: { 'write.valid': 'demoVerified' } },
    demoVerified: {},
  },
});

/**
 * The model in words, for QA and for the model registry (`tests/machines/models/`): what each
 * event is and what a person sees in each state.
 */
export const configureSessionModelWords = {
  name: 'configure-session',
  title: 'Configure session (Bluetooth panel)',
  source: 'machines/ble/configure-session-machine.ts',
  about:
    'The parent of the connection, password, write, command and history machines: connecting, unlocking, the form following the device until edited, writes verified (and recorded for a real device only), refused or lost, commands, the history and leaving the page. The children themselves have their own models.',
  events: {
    'bluetooth.connect': 'The person presses Connect and chooses the device in the browser’s chooser.',
    'demo.connect': 'The person presses “Use demo device”.',
    'chooser.closed': 'The person presses Connect and closes the chooser without choosing.',
    'connect.fails': 'The person presses Connect while Bluetooth is switched off.',
    'failure.dismissed': 'The person dismisses the Bluetooth problem.',
    'password.right':
      'The person types the device’s password (0042abc, or the demo device’s 0000) and unlocks.',
    'interval.elapsed':
      'The device’s max charge current is changed on the device itself, and 20 000 ms later the session reads it.',
    'field.edited': 'The person types a new max charge current.',
    'write.asRead':
      'The person presses Write without editing anything: the clock field holds the phone’s time.',
    'device.oddName':
      'The device’s name is set on the device to one the form refuses (“#X5000”), the session reads it, and the person presses Write.',
    'write.valid': 'The person presses Write.',
    'write.outOfRange': 'The person types 120 A (over the 100 A limit) and presses Write.',
    'write.impossibleDate': 'The person sets the clock to 30 February and presses Write.',
    'write.linkDropped': 'The person presses Write and the link drops before the device takes the frame.',
    'form.revert': 'The person presses Revert.',
    'link.dropped': 'The device goes out of range.',
    'link.back': 'The device is back in range before the first reconnection attempt (1 s).',
    'link.staysAway': 'The device stays out of range through all three reconnection attempts.',
    'session.retry': 'The device is back and the person presses Try again.',
    'ble.disconnect': 'The person presses Disconnect.',
    'command.run': 'The person asks for “Restart inverter” and confirms it.',
    'command.cancelled': 'The person asks for “Restart inverter” and cancels.',
    'command.dismissed': 'The person closes the command’s result.',
    'provision.given': 'The person presses “Give it its network settings”.',
    'provision.dismissed': 'The person closes its result.',
    'provision.onDemo': 'The person asks for network settings on the demo device.',
    'history.refresh': 'The person presses Refresh in the configuration history.',
    'history.more': 'The person asks for older changes.',
    'result.dismissed': 'The person closes the write’s result.',
    'page.left': 'The person leaves the page: the session stops.',
    'template.written':
      'The person writes the settings template “Barn standard” (max charge current 35 A, work mode Backup) from the templates list.',
    'template.linkDropped':
      'The person writes the template “Barn standard” and the link drops before the device takes it.',
  },
  states: {
    notConnected: 'Not connected: Connect and Use demo device are offered, with the demo device’s password.',
    chooserClosed: 'Not connected, and no error: closing the chooser is not a failure.',
    failed: '“Not connected: the last attempt failed”, with the reason; nothing to disconnect.',
    failureDismissed: 'Not connected, the failure put away.',
    locked: 'Connected over Bluetooth; the password is asked; the form shows the device’s values, read-only.',
    following:
      'Unlocked; the form shows the device’s values and the phone’s time in the clock field (no changes).',
    followedDevice: 'The form took the device’s new value on its own: nothing was edited.',
    clockSet:
      'Written and verified: the device’s clock is the phone’s time, and the history has the clock change.',
    historyRead: 'The history was read again from the service.',
    olderAsked: 'No older changes: the history stays as it was.',
    resultDismissed: 'The write’s result is put away; the form follows the device.',
    oddNameRefused: 'Write refused at the form: the device name is named as not valid; nothing was sent.',
    lostFollowing: 'The link dropped: reconnecting; the password machine is waiting, the form unchanged.',
    backFollowing: 'Connected again without the chooser, unlocked again on its own.',
    reconnectFailed: '“Not connected: the last attempt failed”, with Try again.',
    disconnectedWhileLost: 'Not connected; the password is forgotten.',
    commandDone: '“Restart inverter: done.”, run over the session’s link.',
    commandDismissed: 'The command’s result put away.',
    commandCancelled: 'Nothing was run.',
    provisioned:
      'The device keeps the secret the service issued for it and the service’s address, given over the session’s link.',
    provisionDismissed: 'The result put away; the device keeps what it was given.',
    demoNotProvisioned:
      'Not taken: the demo device is nobody’s device; no secret was issued and the demo device holds none.',
    pageLeft: 'The session stopped and the link it opened is closed.',
    edited: 'The form holds the typed value, marked changed.',
    editsKept:
      'The device was read again, and the typed value stays; the field knows the device’s new value.',
    verified:
      'Written and verified; the device holds the value; the device’s history has the change; the form follows the device.',
    disconnected: 'Not connected; the password is forgotten.',
    refusedAtForm: 'The field says “Max charge current must be at most 100 A”; nothing was sent.',
    refusedByEncoder:
      'The clock field says it is not a real date and time; nothing was sent; the typed date stays.',
    lostWithEdits: '“The connection was lost before the device confirmed the write”; the typed value stays.',
    backWithEdits: 'Connected and unlocked again on its own; the typed value is still in the form.',
    reverted: 'The form shows the device’s values again.',
    demoLocked: 'Connected to the demo device; its password is asked.',
    demoFollowing: 'Unlocked on the demo device.',
    demoEdited: 'The demo device’s form holds the typed value.',
    demoVerified: 'Written and verified on the demo device; the real device and its history are untouched.',
    templateApplied:
      'Written and verified: the device holds the template; its history names the template; the form follows the device.',
    templateLost:
      '“The connection was lost before the device confirmed the write”; the device is unchanged; the form, untouched before, goes on following the device.',
    templateOverEdits:
      'Written and verified: the device holds the template, the typed value gave way to it, the history names the template.',
  },
} as const;
