/**
 * SMP (MCUmgr) numbers: operations, groups, command ids and error codes, as Zephyr's MCUmgr
 * defines them, so a real device with Zephyr and MCUboot speaks the same protocol.
 */

/** The header's operation (3 bits). */
export const SMP_OP = { read: 0, readAnswer: 1, write: 2, writeAnswer: 3 } as const;
export type SmpOp = (typeof SMP_OP)[keyof typeof SMP_OP];

/** The header's version bits: 0 is the original protocol (errors as `rc`), 1 is SMP version 2 (`err`). */
export const SMP_VERSION = { v1: 0, v2: 1 } as const;

export const SMP_GROUP = { os: 0, image: 1 } as const;

/** Commands of the OS group. */
export const OS_COMMAND = { echo: 0, reset: 5, params: 6 } as const;
/** Commands of the image group. */
export const IMAGE_COMMAND = { state: 0, upload: 1, erase: 5 } as const;

/** The standard GATT service and characteristic of SMP over Bluetooth. */
export const SMP_SERVICE = '8d53dc1d-1db7-4cd3-868b-8a527460aa84';
export const SMP_CHARACTERISTIC = 'da2e7828-fbce-4e01-ae9e-261174997c48';

/** Errors every group may answer (`rc`; SMP-level in version 2 too). */
export const MGMT_ERR = {
  ok: 0,
  unknown: 1,
  noMemory: 2,
  invalid: 3,
  timeout: 4,
  noEntry: 5,
  badState: 6,
  messageSize: 7,
  notSupported: 8,
  corrupt: 9,
  busy: 10,
  accessDenied: 11,
} as const;

/** The image group's own errors (`err: {group: 1, rc}` in SMP version 2). */
export const IMG_ERR = {
  unknown: 1,
  noImage: 3,
  invalidTlv: 5,
  hashNotFound: 8,
  noFreeSlot: 9,
  invalidSlot: 14,
  invalidOffset: 20,
  invalidLength: 21,
  invalidImageHeader: 22,
  invalidImageHeaderMagic: 23,
  invalidHash: 24,
  imageAlreadyPending: 28,
  imageTooLarge: 30,
  imageDataOverrun: 31,
  confirmationDenied: 32,
} as const;

const MGMT_TEXT: Record<number, string> = {
  1: 'an unknown error',
  2: 'out of memory',
  3: 'an invalid value',
  4: 'a timeout',
  5: 'no such entry',
  6: 'a bad state',
  7: 'a message too large',
  8: 'a command it does not support',
  9: 'corrupt data',
  10: 'being busy',
  11: 'access denied',
};

const IMG_TEXT: Record<number, string> = {
  1: 'an unknown image error',
  3: 'no image',
  5: 'an invalid TLV',
  8: 'no image with that hash',
  9: 'no free slot',
  14: 'an invalid slot',
  20: 'an invalid offset',
  21: 'an invalid length',
  22: 'an invalid image header',
  23: 'an invalid image magic',
  24: 'an invalid hash',
  28: 'an image already pending',
  30: 'an image too large for its slot',
  31: 'more data than the image holds',
  32: 'confirmation denied',
};

/** The device refused a request: `group` is null for an SMP-level `rc`, else the group of `err`. */
export class SmpError extends Error {
  constructor(
    readonly rc: number,
    readonly group: number | null,
    /** The device's own reason (`rsn`), when it gives one. */
    readonly reason?: string,
  ) {
    const known = group === SMP_GROUP.image ? IMG_TEXT[rc] : group === null ? MGMT_TEXT[rc] : undefined;
    const what = known ?? `error ${rc}${group === null ? '' : ` of group ${group}`}`;
    super(`The device answered with ${what}${reason ? `: ${reason}` : ''}.`);
    this.name = 'SmpError';
  }
}
