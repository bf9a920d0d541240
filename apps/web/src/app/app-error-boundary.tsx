import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportError } from '../lib/error-reporting';
import { BareErrorPage } from '../components/layout/bare-error-page';

interface State {
  failed: boolean;
}

/** Catches render errors outside the routes' own boundaries (providers), reports them once. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportError(error, { source: 'app', componentStack: info.componentStack });
  }

  override render() {
    return this.state.failed ? <BareErrorPage /> : this.props.children;
  }
}
