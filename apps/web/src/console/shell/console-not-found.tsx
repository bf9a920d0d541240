import { consoleRoutes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { ConsolePage } from '../components/console-page';

/** An address under /console the console does not have. */
export function ConsoleNotFound() {
  const { t } = useLingui();
  return (
    <ConsolePage title={t`Page not found`} testId="console-not-found">
      <div className="console-panel">
        <p>
          <Trans>
            The console has no page at this address. Check the address, or start again from borrowers.
          </Trans>
        </p>
        <p>
          <Link to={consoleRoutes.borrowers.path}>
            <Trans>Go to borrowers</Trans>
          </Link>
        </p>
      </div>
    </ConsolePage>
  );
}
