import { Navigate, useLocation } from 'react-router';

/** Redirects to `to`, keeping the query string and hash (an emailed `/app/approvals?request=…` opens that request). */
export function RedirectKeepingQuery({ to }: { to: string }) {
  const { search, hash } = useLocation();
  return <Navigate to={`${to}${search}${hash}`} replace />;
}
