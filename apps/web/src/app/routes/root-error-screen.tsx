import { useEffect } from 'react';
import { reportError } from '../../lib/error-reporting';
import { BareErrorPage } from '../../components/layout/bare-error-page';

/** What a layout threw: the bare error page, and the error reported. */
export function RootErrorScreen({ error }: { error: unknown }) {
  useEffect(() => {
    reportError(error, { source: 'layout' });
  }, [error]);
  return <BareErrorPage />;
}
