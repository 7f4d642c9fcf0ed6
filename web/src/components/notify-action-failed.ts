import { notifications } from '@mantine/notifications';

/** A list panel's action that failed outside a dialog: its reason in a red notification. */
export const notifyActionFailed = (err: unknown) => notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'The action failed. Please try again.' });
