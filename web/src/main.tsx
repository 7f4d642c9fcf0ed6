import { lazy, Suspense, useState } from 'react';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link, RouterProvider } from 'react-router';
import '@mantine/core/styles.css';
import './styles.css';
import { router } from './app/router.tsx';
import { mountPage } from './app/mount.tsx';
import { LinkComponent } from './components/InternalLink.tsx';
import { registerServiceWorker } from './lib/service-worker.ts';
import { serverConfigQuery } from './lib/server-config.ts';
import { queryClient } from './lib/query-client.ts';
import { meQuery } from './lib/me-query.ts';
import { startErrorReporting } from './lib/error-reporting.ts';
import { prefetchDashboard } from './features/dashboard/api/prefetch-dashboard.ts';

// The toasts' container and its transitions load with the first toast: `notifications.show()` only writes to a store,
// which the container shows once it is there (issue 14: the first load carries no code a first paint does not need;
// issue 33: nor does a first visit, which shows no toast, fetch it).
const Notifications = lazy(async () => ({ default: (await import('./app/Toasts.tsx')).Notifications }));

function Toasts() {
  const { notifications } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length > 0) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense>
      {/* Bottom right: toasts never cover the header's tenant selector and theme toggle. */}
      <Notifications position="bottom-right" />
    </Suspense>
  );
}

// Who is signed in is asked at once, beside the page's scripts: the guard that needs it finds it cached or on its way
// (issue 33: a first visit's requests in parallel, not in series).
void queryClient.prefetchQuery(meQuery);
// Opening on the dashboard, its list and figures are asked as soon as that answer is there, before any page renders.
prefetchDashboard(queryClient, window.location);

// The DSN comes from the server at run time (same request as the rest of the page's config); none, nothing loads.
queryClient.fetchQuery(serverConfigQuery).then(
  (config) => startErrorReporting(config.sentryDsn),
  () => startErrorReporting(null),
);

mountPage(
  <>
    <Toasts />
    <QueryClientProvider client={queryClient}>
      {/* Shared pieces' links (logo, footers) change pages inside the app without a reload. */}
      <LinkComponent value={Link}>
        <RouterProvider router={router} />
      </LinkComponent>
    </QueryClientProvider>
  </>,
);

window.addEventListener('load', () => registerServiceWorker());
