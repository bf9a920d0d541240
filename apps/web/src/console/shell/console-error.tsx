import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { reportError } from '../../lib/error-reporting';
import { ConsolePage } from '../components/console-page';

/** What a console page threw: said in the console's words, and reported. */
export function ConsoleError({ error }: { error: unknown }) {
  const { t } = useLingui();
  const { pathname } = useLocation();
  useEffect(() => {
    reportError(error, { source: 'route', path: pathname });
  }, [error, pathname]);
  return (
    <ConsolePage title={t`Something went wrong`} testId="console-error">
      <p className="console-panel">
        <Trans>This page couldn’t be shown. Reload the page, or go to another part of the console.</Trans>
      </p>
    </ConsolePage>
  );
}
