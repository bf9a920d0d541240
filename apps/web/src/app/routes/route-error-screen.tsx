import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { GenericError } from '../../components/generic-error';
import { reportError } from '../../lib/error-reporting';

/** What a screen threw: the generic error screen inside the layout, and the error reported. */
export function RouteErrorScreen({ error }: { error: unknown }) {
  const { pathname } = useLocation();
  useEffect(() => {
    reportError(error, { source: 'route', path: pathname });
  }, [error, pathname]);
  return <GenericError />;
}
