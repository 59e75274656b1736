import { useLocalStorage, useReducedMotion } from '@mantine/hooks';
import {
  MOTION_SETTING_KEY,
  type MotionStyle,
  parseMotionStyle,
  platformMotionStyle,
  transitionMs,
} from './motion.ts';

/** The stored choice: a style, or `auto` to follow the platform. */
export type MotionSettingValue = MotionStyle | 'auto';

/** The user's transition setting, shared by every view through localStorage. */
export function useMotionSetting() {
  return useLocalStorage<MotionSettingValue>({
    key: MOTION_SETTING_KEY,
    defaultValue: 'auto',
    getInitialValueInEffect: false,
    serialize: (value) => value,
    deserialize: (value) => parseMotionStyle(value ?? null) ?? 'auto',
  });
}

/** The transition style and duration in effect: the setting or the platform's, 0 ms under reduced motion. */
export function useMotion(): { style: MotionStyle; durationMs: number } {
  const [setting] = useMotionSetting();
  const reduced = useReducedMotion();
  const style = setting === 'auto' ? platformMotionStyle(globalThis.navigator) : setting;
  return { style, durationMs: transitionMs(style, reduced) };
}
