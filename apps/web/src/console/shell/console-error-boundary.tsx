import { Component } from 'react';
import { Outlet, useLocation, type Location } from 'react-router';
import { ConsoleError } from './console-error';

interface BoundaryProps {
  location: Location;
}

interface BoundaryState {
  location: Location;
  /** What the page threw, until the next navigation. */
  failure: { error: unknown } | null;
}

class LocationErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { location: this.props.location, failure: null };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failure: { error } };
  }

  // A navigation leaves the error behind: the next page renders afresh.
  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location.key === state.location.key ? null : { location: props.location, failure: null };
  }

  override render() {
    return this.state.failure ? <ConsoleError error={this.state.failure.error} /> : <Outlet />;
  }
}

/**
 * The console's page, or (when it throws while rendering) the console's own error page inside the
 * shell, until the staff member goes elsewhere. As the portal's RouteErrorBoundary, kept apart: the
 * portal's app folder names the console, and the console does not name it back.
 */
export function ConsoleErrorBoundary() {
  return <LocationErrorBoundary location={useLocation()} />;
}
