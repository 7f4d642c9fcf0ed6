import { Component, type ErrorInfo, type ReactNode } from 'react';
import { MSG } from '../../../contract/messages.ts';
import { reportCrash } from '../lib/error-reporting.ts';

/** The crash fallback of spec section 2: only the text, deliberately without a reset control. */
export function CrashMessage() {
  return (
    <div role="alert" style={{ padding: 32, fontFamily: 'system-ui, sans-serif', fontSize: 18 }}>
      {MSG.crash}
    </div>
  );
}

/**
 * Catches a rendering error anywhere below it, reports it and shows the crash text. Free of the router, so the
 * marketing home page's entry (home-main.tsx) uses it too.
 */
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
