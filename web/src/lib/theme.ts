import { useSyncExternalStore } from 'react';

/**
 * Theme of spec section 4: the saved preference (localStorage `theme`) if any, else the system's; a toggle saves;
 * the root element carries a `dark` class; while nothing is saved, system changes are followed.
 */
export type Theme = 'light' | 'dark';
const KEY = 'theme';
const listeners = new Set<() => void>();
const media = typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

function saved(): Theme | null {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : null;
  } catch {
    return null;
  }
}

let current: Theme = saved() ?? (media?.matches ? 'dark' : 'light');

function apply(theme: Theme) {
  current = theme;
  document.documentElement.classList.toggle('dark', theme === 'dark');
  listeners.forEach((l) => l());
}

media?.addEventListener('change', (e) => {
  if (!saved()) apply(e.matches ? 'dark' : 'light');
});
// Another tab toggled the theme.
window.addEventListener('storage', (e) => {
  if (e.key === KEY) apply(saved() ?? (media?.matches ? 'dark' : 'light'));
});
apply(current);

export function setTheme(theme: Theme) {
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    /* private mode: still switch for this page */
  }
  apply(theme);
}

export const toggleTheme = () => setTheme(current === 'dark' ? 'light' : 'dark');

export function useTheme(): Theme {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
