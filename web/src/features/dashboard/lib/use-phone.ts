import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether the window is phone-narrow (below Mantine's `sm`), known from the first render: Mantine's default answers
 * `undefined` first and the real value from an effect, which rendered the whole dashboard twice before its first paint
 * (and a phone's first frame in the desktop layout). The app renders only in a browser, so it can ask at once.
 */
export const usePhone = () => useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
