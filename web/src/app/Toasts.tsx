// The toasts' container, loaded after the page (main.tsx): a module of its own, so that the pages' static
// `notifications.show()` (a store) does not bring the container and its transitions into the first load.
export { Notifications } from '@mantine/notifications';
