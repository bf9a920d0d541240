import { Component, type ReactNode } from 'react';
import { Outlet, useLocation, type Location } from 'react-router';

interface BoundaryProps {
  location: Location;
  fallback: (error: unknown) => ReactNode;
}

interface BoundaryState {
  location: Location;
  /** What the routes below threw, until the next navigation. */
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
    return this.state.failure ? this.props.fallback(this.state.failure.error) : <Outlet />;
  }
}

/**
 * A layout route that shows `fallback` in place of the routes below it when they throw while
 * rendering (a screen's chunk that fails to download included), until the borrower goes elsewhere.
 * The fallback reports the error.
 */
export function RouteErrorBoundary({ fallback }: { fallback: (error: unknown) => ReactNode }) {
  return <LocationErrorBoundary location={useLocation()} fallback={fallback} />;
}
