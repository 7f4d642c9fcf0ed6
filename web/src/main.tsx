import { lazy, Suspense } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Link, RouterProvider } from 'react-router';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles.css';
import { router } from './app/router.tsx';
import { mountPage } from './app/mount.tsx';
import { LinkComponent } from './components/InternalLink.tsx';
import { registerServiceWorker } from './lib/service-worker.ts';
import { serverConfigQuery } from './lib/server-config.ts';
import { queryClient } from './lib/query-client.ts';
import { meQuery } from './lib/me-query.ts';
import { startErrorReporting } from './lib/error-reporting.ts';

// The toasts' container and its transitions load after the page: `notifications.show()` only writes to a store,
// which the container shows once it is there (issue 14: the first load carries no code a first paint does not need).
const Notifications = lazy(async () => ({ default: (await import('./app/Toasts.tsx')).Notifications }));

// Who is signed in is asked at once, beside the page's scripts: the guard that needs it finds it cached or on its way
// (issue 33: a first visit's requests in parallel, not in series).
void queryClient.prefetchQuery(meQuery);

// The DSN comes from the server at run time (same request as the rest of the page's config); none, nothing loads.
queryClient.fetchQuery(serverConfigQuery).then(
  (config) => startErrorReporting(config.sentryDsn),
  () => startErrorReporting(null),
);

mountPage(
  <>
    {/* Bottom right: toasts never cover the header's tenant selector and theme toggle. */}
    <Suspense>
      <Notifications position="bottom-right" />
    </Suspense>
    <QueryClientProvider client={queryClient}>
      {/* Shared pieces' links (logo, footers) change pages inside the app without a reload. */}
      <LinkComponent value={Link}>
        <RouterProvider router={router} />
      </LinkComponent>
    </QueryClientProvider>
  </>,
);

window.addEventListener('load', () => registerServiceWorker());
