import { useDeferredValue } from 'react';

/**
 * False at a component's first render, true in a render of its own right after, once the first is on screen: what a
 * page shows at once but nobody uses in its first instant (a Select's list, a tooltip) comes in that second render, and
 * the first paint (the dashboard's first alert card) does not wait for it (issue 33).
 */
export function useAfterFirstRender(): boolean {
  return useDeferredValue(true, false);
}
