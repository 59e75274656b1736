import { z } from 'zod';
import { MAX_REMOTE_APPLY_DEVICES, type RemoteApplyRequest } from '../../../../contracts/config-templates.ts';

/** The "Write to devices online" form: the devices ticked, their password, and whether to go on after a failure. */
export const remoteApplyFormSchema = z.object({
  serials: z
    .array(z.string())
    .min(1, 'Tick at least one device')
    .max(MAX_REMOTE_APPLY_DEVICES, `Tick at most ${MAX_REMOTE_APPLY_DEVICES} devices at a time`),
  password: z.string().max(16, 'A device password has at most 16 characters'),
  continueOnFailure: z.boolean(),
});
export type RemoteApplyForm = z.infer<typeof remoteApplyFormSchema>;

/** The form as it opens: nothing ticked, no password, stop at the first failure. */
export const EMPTY_REMOTE_APPLY: RemoteApplyForm = { serials: [], password: '', continueOnFailure: false };

/**
 * The request a valid form sends: the password only when one is given.
 * @example remoteApplyRequest({ serials: ['HX5K-24-000133'], password: '', continueOnFailure: false })
 * // { serials: ['HX5K-24-000133'], continueOnFailure: false }
 */
export const remoteApplyRequest = ({
  serials,
  password,
  continueOnFailure,
}: RemoteApplyForm): RemoteApplyRequest => ({
  serials,
  continueOnFailure,
  ...(password ? { password } : {}),
});

/** The Write button's label for the devices ticked: "Write to 1 device", "Write to 3 devices". */
export const writeToLabel = (ticked: number) => `Write to ${ticked} device${ticked === 1 ? '' : 's'}`;
