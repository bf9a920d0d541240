import { useEffect } from 'react';
import { useLocation, useRouteError } from 'react-router';
import { GenericError } from '../../components/generic-error';
import { reportError } from '../../lib/error-reporting';

/** errorElement of the screens: the generic error screen inside the layout, and the error reported. */
export function RouteErrorScreen() {
  const error = useRouteError();
  const { pathname } = useLocation();
  useEffect(() => {
    reportError(error, { source: 'route', path: pathname });
  }, [error, pathname]);
  return <GenericError />;
}
