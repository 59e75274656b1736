import { describe, expect, it } from 'vitest';
import { MAX_REMOTE_APPLY_DEVICES } from '../../contracts/config-templates.ts';
import {
  EMPTY_REMOTE_APPLY,
  remoteApplyFormSchema,
  remoteApplyRequest,
  writeToLabel,
} from '../../src/features/devices/configure/remote-apply-form.ts';

const firstIssue = (values: unknown) => {
  const parsed = remoteApplyFormSchema.safeParse(values);
  return parsed.success ? null : parsed.error.issues[0]?.message;
};

describe('the "Write to devices online" form', () => {
  it('writes nothing until a device is ticked, and no more devices than one run takes', () => {
    expect(firstIssue(EMPTY_REMOTE_APPLY)).toBe('Tick at least one device');
    expect(firstIssue({ ...EMPTY_REMOTE_APPLY, serials: ['HX5K-24-000133'] })).toBeNull();
    const many = Array.from(
      { length: MAX_REMOTE_APPLY_DEVICES + 1 },
      (_, i) => `HX5K-24-${String(i).padStart(6, '0')}`,
    );
    expect(firstIssue({ ...EMPTY_REMOTE_APPLY, serials: many })).toBe(
      `Tick at most ${MAX_REMOTE_APPLY_DEVICES} devices at a time`,
    );
    expect(firstIssue({ ...EMPTY_REMOTE_APPLY, serials: ['HX5K-24-000133'], password: 'x'.repeat(17) })).toBe(
      'A device password has at most 16 characters',
    );
  });

  it('sends the password only when one is given', () => {
    const ticked = { serials: ['HX5K-24-000133'], password: '', continueOnFailure: false };
    expect(remoteApplyRequest(ticked)).toEqual({ serials: ['HX5K-24-000133'], continueOnFailure: false });
    expect(remoteApplyRequest({ ...ticked, password: '0000', continueOnFailure: true })).toEqual({
      serials: ['HX5K-24-000133'],
      continueOnFailure: true,
      password: '0000',
    });
  });

  it('names on its button how many devices it writes', () => {
    expect([0, 1, 3].map(writeToLabel)).toEqual([
      'Write to 0 devices',
      'Write to 1 device',
      'Write to 3 devices',
    ]);
  });
});
