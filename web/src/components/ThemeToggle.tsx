import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ActionIcon } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { toggleTheme, useTheme } from '../lib/theme.ts';

// The tooltip only ever shows on hover: its code (Tooltip with floating-ui, ~20 kB gzip) loads once the page has
// loaded, not before the page can show (issue 14's budgets for the home page and sign-in).
const ThemeToggleTooltip = lazy(async () => ({ default: (await import('./ThemeToggleTooltip.tsx')).ThemeToggleTooltip }));

/** True once the page has loaded (its `load` event): what it needs to show is there. */
function usePageLoaded() {
  const [loaded, setLoaded] = useState(() => document.readyState === 'complete');
  useEffect(() => {
    if (loaded) return;
    const done = () => setLoaded(true);
    if (document.readyState === 'complete') return done();
    window.addEventListener('load', done, { once: true });
    return () => window.removeEventListener('load', done);
  }, [loaded]);
  return loaded;
}

export function ThemeToggle() {
  const theme = useTheme();
  const button = useRef<HTMLButtonElement>(null);
  const loaded = usePageLoaded();
  const label = theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <>
      <ActionIcon ref={button} variant="default" size="lg" onClick={toggleTheme} aria-label={label} data-testid="theme-toggle">
        {theme === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
      </ActionIcon>
      {/* Attached to the button rather than wrapping it: the button stays the same element when the tooltip arrives. */}
      {loaded && (
        <Suspense>
          <ThemeToggleTooltip label={label} target={button} />
        </Suspense>
      )}
    </>
  );
}
