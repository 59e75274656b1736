import { createMachine } from 'xstate';

/**
 * Abstract model of the Bluetooth connection machine: the chooser answered or closed, the periodic
 * read, a dropped link coming back without the chooser or staying away, disconnecting. Driven
 * against the real machine by `ble-model-drivers.ts`.
 */
export const bleConnectionModel = createMachine({
  id: 'bleConnectionModel',
  initial: 'idle',
  states: {
    idle: {
      on: {
        'ble.connect': 'ready',
        'chooser.closed': 'chooserClosed',
        'chooser.fails': 'chooserFailed',
        'connect.outOfRange': 'connectFailed',
        'connect.noService': 'discoverFailed',
        'disconnect.whileConnecting': 'cancelledConnecting',
        'disconnect.whileDiscovering': 'cancelledDiscovering',
      },
    },
    chooserFailed: { on: { 'ble.connect': 'connectedAfterFailure' } },
    connectedAfterFailure: {},
    connectFailed: {},
    discoverFailed: {},
    cancelledConnecting: {},
    cancelledDiscovering: {},
    chooserClosed: {
      on: { 'ble.connect': 'ready' },
    },
    ready: {
      on: {
        'interval.elapsed': 'readAgain',
        'link.dropped': 'reconnecting',
        'ble.disconnect': 'disconnected',
        'ble.refresh': 'readOnRequest',
        'read.damaged': 'readFailed',
        'config.written': 'configHandedOver',
      },
    },
    readOnRequest: {},
    readFailed: {},
    configHandedOver: {},
    readAgain: {
      on: { 'link.dropped': 'reconnecting', 'ble.disconnect': 'disconnected' },
    },
    reconnecting: {
      on: {
        'backoff.elapsed': 'reconnected',
        'device.staysAway': 'failed',
        'ble.disconnect': 'disconnected',
      },
    },
    reconnected: {
      on: { 'ble.disconnect': 'disconnected' },
    },
    failed: {
      on: { 'device.back': 'reconnected', 'ble.disconnect': 'disconnected' },
    },
    /** Disconnected by the person: idle again, nothing left to report. */
    disconnected: {},
  },
});

/**
 * Abstract model of the password machine: a wrong password, one too long to send, the right one
 * (with leading zeros), a dropped link that comes back unlocked on its own, and disconnecting.
 */
export const blePasswordModel = createMachine({
  id: 'blePasswordModel',
  initial: 'disconnected',
  states: {
    disconnected: { on: { 'link.ready': 'locked', 'link.readyNoPassword': 'open' } },
    /** A product without a password: the form is open as soon as the device is connected. */
    open: {},
    locked: {
      on: {
        'password.wrong': 'wrong',
        'password.tooLong': 'tooLong',
        'password.right': 'unlocked',
        'password.linkDropped': 'checkFailed',
      },
    },
    /** The link dropped while the password was checked: still locked, the reason shown. */
    checkFailed: {},
    wrong: { on: { 'password.right': 'unlocked', 'password.tooLong': 'tooLong' } },
    tooLong: { on: { 'password.right': 'unlocked', 'password.wrong': 'wrong' } },
    unlocked: { on: { 'link.dropped': 'away', 'ble.disconnect': 'forgotten' } },
    away: { on: { 'link.back': 'unlocked' } },
    /** Disconnected by the person: the accepted password is forgotten. */
    forgotten: {},
  },
});

/**
 * Abstract model of the write machine: a valid form written and verified, an invalid form, the
 * link dropped before the device took the write, a read-back that differs, an answer with a bad
 * CRC (checked by reading back); after any of them a person writes again or dismisses the result.
 */
export const bleWriteModel = createMachine({
  id: 'bleWriteModel',
  initial: 'idle',
  states: {
    idle: {
      on: {
        'write.valid': 'done',
        'write.invalid': 'invalid',
        'write.linkDropped': 'lost',
        'write.readBackDiffers': 'different',
        'write.answerDamaged': 'done',
        'write.deviceLocked': 'refused',
        'write.readBackLost': 'unreadable',
        'write.ignored': 'kept',
        'write.staleBase': 'notSent',
      },
    },
    done: { on: { 'config.dismiss': 'dismissed', 'write.valid': 'doneAgain' } },
    doneAgain: {},
    refused: {},
    unreadable: {},
    kept: {},
    notSent: {},
    invalid: { on: { 'write.valid': 'done', 'config.dismiss': 'dismissed' } },
    lost: { on: { 'write.valid': 'done', 'config.dismiss': 'dismissed' } },
    different: { on: { 'write.valid': 'done', 'config.dismiss': 'dismissed' } },
    /** The result put away: idle again, ready for the next write. */
    dismissed: {},
  },
});
