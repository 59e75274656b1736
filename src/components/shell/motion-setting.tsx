import { Box, SegmentedControl, Text } from '@mantine/core';
import { type MotionSettingValue, useMotionSetting } from './use-motion.ts';

const OPTIONS: { label: string; value: MotionSettingValue }[] = [
  { label: 'Auto', value: 'auto' },
  { label: 'iOS', value: 'ios' },
  { label: 'Material', value: 'material' },
];

/** Lets the user pick the page-transition style instead of following the platform. */
export function MotionSetting() {
  const [value, setValue] = useMotionSetting();
  return (
    <Box px="sm" pb={4}>
      <Text size="xs" c="dimmed" id="motion-setting-label" mb={2}>
        Transitions
      </Text>
      <SegmentedControl
        size="xs"
        fullWidth
        aria-labelledby="motion-setting-label"
        data={OPTIONS}
        value={value}
        onChange={(next) => setValue(next as MotionSettingValue)}
      />
    </Box>
  );
}
