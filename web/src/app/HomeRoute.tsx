import { Navigate } from 'react-router';
import { HomePage } from '../features/home/pages/HomePage.tsx';
import { useServerConfig } from '../lib/server-config.ts';

/** The host rule: on a host starting with the app prefix, `/` is the dashboard; elsewhere the marketing page. */
export function HomeRoute() {
  const { data } = useServerConfig();
  const prefix = data?.appHostPrefix ?? 'app.';
  if (window.location.hostname.startsWith(prefix)) return <Navigate to="/app/dashboard" replace />;
  return <HomePage />;
}
