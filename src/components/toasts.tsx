import '@mantine/core/styles/Notification.layer.css';
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

/**
 * Mantine's toast container and its stylesheet, in a chunk of their own: nothing is toasted
 * before the first screen is up, and `notifications.show()` queues in the shared store until
 * this container mounts.
 */
export default function Toasts() {
  return <Notifications position="top-right" />;
}
