/**
 * Form groups that get no controls in the app: factory calibration is set at the end of the line,
 * never in the field. Pass as `excludedGroups` to `buildForm`.
 */
export const EXCLUDED_GROUPS: readonly string[] = ['Factory calibration'];
