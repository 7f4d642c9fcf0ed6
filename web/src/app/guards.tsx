import { Navigate, Outlet, useLocation } from 'react-router';
import { Loading } from '../components/Loading.tsx';
import { LoadError } from '../components/AccessState.tsx';
import { CurrentTenantProvider, useMe } from '../lib/session.tsx';

/** /app/* requires a signed-in user; others go to /login (and come back after signing in). */
export function RequireAuth() {
  const { data: me, isPending, isError, refetch } = useMe();
  const location = useLocation();
  if (isPending) return <Loading fullScreen />;
  if (isError) return <LoadError message="Could not reach the server." onRetry={() => refetch()} />;
  if (!me) return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return (
    <CurrentTenantProvider me={me}>
      <Outlet />
    </CurrentTenantProvider>
  );
}

/** System Administration is for super admins; everyone else is sent to the dashboard. */
export function RequireSuperAdmin() {
  const { data: me } = useMe();
  if (!me?.abilities.systemAdmin) return <Navigate to="/app/dashboard" replace />;
  return <Outlet />;
}
