import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { Loading } from '../components/Loading.tsx';
import { useServerConfig } from '../lib/server-config.ts';

/**
 * Where the marketing page lives: `/`, which the server answers with home.html, the page's own entry. Should this
 * very document have been served for `/` (a server that does not know home.html), the file itself, rather than
 * loading `/` again and again.
 */
function homeUrl() {
  const first = performance.getEntriesByType('navigation')[0];
  const servedFor = first ? new URL(first.name).pathname : null;
  return `${servedFor === '/' ? '/home.html' : '/'}${window.location.search}${window.location.hash}`;
}

/**
 * The host rule inside the app (the server applies it to a first visit: server/app.ts). On a host starting with the
 * app prefix, `/` is the dashboard. Elsewhere `/` is the marketing home page, an entry of its own without the app's
 * router and query code (issue 14's budget): reaching it from inside the app (the logo, "Back to homepage", after
 * signing out) loads it whole, as a first visit does, so the page is the same either way.
 */
export function HomeRoute() {
  const { data, isError } = useServerConfig();
  // Without the config, the server decides: it answers `/` on the app host with a redirect to the dashboard.
  const appHost = data ? window.location.hostname.startsWith(data.appHostPrefix) : isError ? false : null;
  useEffect(() => {
    if (appHost === false) window.location.replace(homeUrl());
  }, [appHost]);
  if (appHost) return <Navigate to="/app/dashboard" replace />;
  return <Loading fullScreen />;
}
