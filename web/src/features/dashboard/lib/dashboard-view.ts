import { useCallback, useState } from 'react';

/** How the active list shows its alerts: compact cards (one line each, the default), roomy cards, or a table. */
export const DASHBOARD_VIEWS = ['compact', 'roomy', 'table'] as const;
export type DashboardView = (typeof DASHBOARD_VIEWS)[number];

/**
 * A stored choice (JSON, as Mantine's useLocalStorage wrote it before). Anything else is the default: nothing stored
 * yet, or the `cards` of the days of two views (that hook stored every visitor's default, so it says nothing of a
 * choice: those people get the compact cards too).
 */
export function readView(raw: string | null | undefined): DashboardView {
  let value: unknown;
  try {
    value = raw ? JSON.parse(raw) : undefined;
  } catch {
    value = undefined;
  }
  return DASHBOARD_VIEWS.find((v) => v === value) ?? 'compact';
}

const storageKey = (userId: string) => `alertdesk.dashboardView.${userId}`;

function load(key: string): DashboardView {
  try {
    return readView(localStorage.getItem(key));
  } catch {
    return 'compact'; // storage blocked: the default, every visit
  }
}

/**
 * The list's view, kept per person on this browser under the key the Cards/Table choice had (a few lines instead of
 * Mantine's useLocalStorage, whose 1 kB the dashboard's first paint cannot spare). A phone has no room for the table:
 * there it shows the compact cards.
 */
export function useDashboardView(userId: string, phone: boolean) {
  const key = storageKey(userId);
  const [state, setState] = useState(() => ({ key, view: load(key) }));
  // Another person signed in on this tab: their own choice.
  const stored = state.key === key ? state.view : load(key);
  const setView = useCallback(
    (view: DashboardView) => {
      setState({ key, view });
      try {
        localStorage.setItem(key, JSON.stringify(view));
      } catch {
        // storage blocked: the choice lasts as long as the page
      }
    },
    [key],
  );
  const view: DashboardView = phone && stored === 'table' ? 'compact' : stored;
  return [view, setView] as const;
}
