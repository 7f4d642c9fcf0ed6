import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { isRouteErrorResponse, useInRouterContext, useRouteError } from 'react-router';
import { MSG } from '../../../contract/messages.ts';
import { reportCrash } from '../lib/error-reporting.ts';

function CrashMessage() {
  return (
    <div role="alert" style={{ padding: 32, fontFamily: 'system-ui, sans-serif', fontSize: 18 }}>
      {MSG.crash}
    </div>
  );
}

/** The router's error element: reports what it caught (React does not pass it on), then shows the text. */
function RouteCrash() {
  const error = useRouteError();
  useEffect(() => {
    if (error && !isRouteErrorResponse(error)) reportCrash(error);
  }, [error]);
  return <CrashMessage />;
}

/** The crash fallback of spec section 2: only the text, deliberately without a reset control. */
export function CrashText() {
  return useInRouterContext() ? <RouteCrash /> : <CrashMessage />;
}

export class CrashBoundary extends Component<{ children: ReactNode }, { crashed: boolean }> {
  state = { crashed: false };
  static getDerivedStateFromError() {
    return { crashed: true };
  }
  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Uncaught rendering error', error, info.componentStack);
    reportCrash(error, info.componentStack ?? undefined);
  }
  render() {
    return this.state.crashed ? <CrashMessage /> : this.props.children;
  }
}
