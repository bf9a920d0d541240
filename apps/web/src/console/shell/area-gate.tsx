import type { Endpoint } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { consoleRoutes } from '@customer-core/contracts';
import type { ReactNode } from 'react';
import { ConsolePage } from '../components/console-page';
import { useMay } from './use-may';

/** An area only some roles open (by its gate's endpoint): its page, or a page that says so. */
export function AreaGate({ gate, children }: { gate: Pick<Endpoint, 'staff'>; children: ReactNode }) {
  const { t } = useLingui();
  const may = useMay();
  if (may(gate)) return children;
  return (
    <ConsolePage title={t`Not open to your role`} testId="console-not-allowed">
      <div className="console-panel">
        <p>
          <Trans>This part of the console is for admins. Ask an admin if you need something done here.</Trans>
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
