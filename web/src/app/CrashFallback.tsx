import { useEffect } from 'react';
import { isRouteErrorResponse, useInRouterContext, useRouteError } from 'react-router';
import { reportCrash } from '../lib/error-reporting.ts';
import { CrashMessage } from './CrashBoundary.tsx';

/** The router's error element: reports what it caught (React does not pass it on), then shows the text. */
function RouteCrash() {
  const error = useRouteError();
  useEffect(() => {
    if (error && !isRouteErrorResponse(error)) reportCrash(error);
  }, [error]);
  return <CrashMessage />;
}

/** The crash fallback of spec section 2 inside the router (its errorElement). */
export function CrashText() {
  return useInRouterContext() ? <RouteCrash /> : <CrashMessage />;
}
