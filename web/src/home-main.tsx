import '@mantine/core/styles.css';
import './styles.css';
import type { PublicConfig } from '../../contract/auth.ts';
import { mountPage } from './app/mount.tsx';
import { HomePage } from './features/home/pages/HomePage.tsx';
import { pricingRequests } from './features/home/api/pricing.ts';
import { api } from './lib/api.ts';
import { startErrorReporting } from './lib/error-reporting.ts';

/**
 * The marketing home page's own entry (home.html, served for `/` on the non-app host; server/app.ts). It carries
 * neither React Router nor TanStack Query nor the app's toasts: its links to sign-in and registration are plain links
 * (a full load of the app's entry), its two lists are loaded once (issue 14: ≤ 120 kB of gzip JavaScript before the
 * page shows, e2e/bundle-budget.test.ts). Everything it shows is the same components as before, in the same theme.
 *
 * No service worker here: it only shows pushes to signed-in people, and the app's pages register it (main.tsx).
 */

// The pricing section's requests and the page's config (the DSN for error reporting) go out at once, while React
// starts: none waits for another.
pricingRequests();
api<PublicConfig>('/config').then(
  (config) => startErrorReporting(config.sentryDsn),
  () => startErrorReporting(null),
);

mountPage(<HomePage />);
