import { Component, type ErrorInfo, type ReactNode } from 'react';
import { MSG } from '../../../contract/messages.ts';

/** The crash fallback of spec section 2: only the text, deliberately without a reset control. */
export function CrashText() {
  return (
    <div role="alert" style={{ padding: 32, fontFamily: 'system-ui, sans-serif', fontSize: 18 }}>
      {MSG.crash}
    </div>
  );
}

export class CrashBoundary extends Component<{ children: ReactNode }, { crashed: boolean }> {
  state = { crashed: false };
  static getDerivedStateFromError() {
    return { crashed: true };
  }
  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Uncaught rendering error', error, info.componentStack);
  }
  render() {
    return this.state.crashed ? <CrashText /> : this.props.children;
  }
}
