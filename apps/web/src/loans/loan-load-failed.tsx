import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { StatusView } from '../components/status-view';

/** A loan's page could not load it (the network, the server): say so, offer a retry and a way back. */
export function LoanLoadFailed({
  message,
  retry,
  back,
  testId,
}: {
  message: string;
  retry: () => void;
  back: { to: string; label: string };
  testId: string;
}) {
  const { t } = useLingui();
  return (
    <StatusView tone="warning" title={t`We couldn’t load this loan`} testId={testId}>
      <p>{message}</p>
      <div className="status-view__actions">
        <button type="button" className="button button--primary" onClick={retry}>
          <Trans>Try again</Trans>
        </button>
        <Link className="button button--secondary" to={back.to}>
          {back.label}
        </Link>
      </div>
    </StatusView>
  );
}
