// The toasts' container, loaded with the first toast (main.tsx): a module of its own, so that the pages' static
// `notifications.show()` (a store) does not bring the container and its transitions into the first load. Its styles
// come with it (nothing else of the app styles its classes).
import '@mantine/notifications/styles.css';

export { Notifications } from '@mantine/notifications';
