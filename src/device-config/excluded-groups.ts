/** Title of the group of factory-only settings that every bundled product has. */
export const FACTORY_GROUP = 'Factory calibration';

/**
 * Form groups that get no controls in the app: factory calibration is set at the end of the line,
 * never in the field. Pass as `excludedGroups` to `buildForm`.
 * @example buildForm(config, decoded, { excludedGroups: EXCLUDED_GROUPS })
 */
export const EXCLUDED_GROUPS: readonly string[] = [FACTORY_GROUP];
