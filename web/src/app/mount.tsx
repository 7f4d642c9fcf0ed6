import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { CrashBoundary } from './CrashBoundary.tsx';
import { theme } from './mantine-theme.ts';
import { useTheme } from '../lib/theme.ts';

function Themed({ children }: { children: ReactNode }) {
  const scheme = useTheme();
  return (
    <MantineProvider theme={theme} forceColorScheme={scheme}>
      {children}
    </MantineProvider>
  );
}

/**
 * Renders an entry's page into #root as both entries do (the app's main.tsx, the home page's home-main.tsx): strict
 * mode, the crash boundary, Mantine in the theme the visitor chose.
 */
export function mountPage(page: ReactNode) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <CrashBoundary>
        <Themed>{page}</Themed>
      </CrashBoundary>
    </StrictMode>,
  );
}
