import { Text } from '@mantine/core';

/**
 * A device whose firmware version is not known: it has not connected to the service since
 * versions are read (a device says its version when it connects; nobody types one).
 */
export function FirmwareUnknown({ long = false }: { long?: boolean }) {
  return (
    <Text span c="dimmed" size="sm">
      {long ? 'Not reported yet: the device says its version when it connects' : 'Not reported'}
    </Text>
  );
}
