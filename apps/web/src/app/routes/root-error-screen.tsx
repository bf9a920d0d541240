import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { reportError } from '../../lib/error-reporting';
import { BareErrorPage } from '../bare-error-page';

/** errorElement of the layout route. */
export function RootErrorScreen() {
  const error = useRouteError();
  useEffect(() => {
    reportError(error, { source: 'layout' });
  }, [error]);
  return <BareErrorPage />;
}
