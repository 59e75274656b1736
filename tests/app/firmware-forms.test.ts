import { describe, expect, it } from 'vitest';
import {
  rolloutRequestOf,
  START_FORM,
  serialsOf,
  startFormSchema,
  uploadFormSchema,
} from '../../src/features/firmware/firmware-forms.ts';

/** The message at each field of the start form, as the person reads it. */
function problems(form: Partial<typeof START_FORM>): Record<string, string> {
  const checked = startFormSchema.safeParse({ ...START_FORM, firmwareId: '3', ...form });
  if (checked.success) return {};
  return Object.fromEntries(checked.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe("the Firmware page's forms", () => {
  it('ask for the file and the model of an upload', () => {
    const checked = uploadFormSchema.safeParse({ file: null, model: '', channel: 'stable' });
    expect(checked.success).toBe(false);
    expect(checked.error?.issues.map((issue) => issue.message)).toEqual([
      'Choose the image file',
      'Choose the model the image is for',
    ]);
    const file = new File([new Uint8Array(4)], 'hx.bin');
    expect(uploadFormSchema.safeParse({ file, model: 'HX-5000', channel: 'beta' }).success).toBe(true);
  });

  it('name what is wrong with a rollout at its field', () => {
    expect(problems({ firmwareId: '', serials: 'HX5K-24-000123' })).toEqual({
      firmwareId: 'Choose the image to roll out',
    });
    expect(problems({ serials: '  ' })).toEqual({ serials: 'Give at least one serial number' });
    expect(problems({ serials: 'HX5K-24-000123, hx5k-24-12' })).toEqual({
      serials: 'HX5K-24-12 is not a serial number such as HX5K-24-000123',
    });
    expect(problems({ target: 'site', siteId: null })).toEqual({ siteId: 'Choose a site' });
    expect(problems({ target: 'model', canary: 0, waveSize: '', maxFailures: 1.5 })).toEqual({
      canary: 'The canary is at least 1',
      waveSize: 'Give the wave size',
      maxFailures: 'The failure limit is a whole number',
    });
    expect(problems({ target: 'model', windowHours: 0 })).toEqual({
      windowHours: 'The window is at least 1 hour',
    });
    expect(problems({ target: 'model', windowHours: 721 })).toEqual({
      windowHours: 'The window is at most 720 hours (30 days)',
    });
    expect(problems({ target: 'model', windowHours: '' })).toEqual({ windowHours: 'Give the window' });
  });

  it('send the serials once each, in capitals, or the site, or neither', () => {
    expect(serialsOf('hx5k-24-000123\nHX5K-24-000124,HX5K-24-000123 ')).toEqual([
      'HX5K-24-000123',
      'HX5K-24-000124',
    ]);
    expect(rolloutRequestOf({ ...START_FORM, firmwareId: '3', serials: 'HX5K-24-000123' })).toEqual({
      firmwareId: 3,
      serials: ['HX5K-24-000123'],
      canary: 1,
      waveSize: 10,
      maxFailures: 1,
      windowHours: 24,
    });
    expect(rolloutRequestOf({ ...START_FORM, firmwareId: '3', target: 'site', siteId: '12' })).toEqual({
      firmwareId: 3,
      siteId: 12,
      canary: 1,
      waveSize: 10,
      maxFailures: 1,
      windowHours: 24,
    });
    expect(
      rolloutRequestOf({ ...START_FORM, firmwareId: '3', target: 'model', serials: 'HX5K-24-000123' }),
    ).toEqual({
      firmwareId: 3,
      canary: 1,
      waveSize: 10,
      maxFailures: 1,
      windowHours: 24,
    });
  });
});
