import { Badge } from '@mantine/core';

/** "Online" beside a device that is connected to the service now; nothing otherwise. */
export function OnlineBadge({ online }: { online: boolean }) {
  if (!online) return null;
  return (
    // Never squeezed by a long name beside it: the name wraps, the badge keeps its word.
    <Badge
      color="teal.9"
      variant="filled"
      size="sm"
      ml="xs"
      title="Connected to the service now"
      style={{ flexShrink: 0 }}
    >
      Online
    </Badge>
  );
}
