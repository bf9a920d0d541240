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
  return (
    <StatusView tone="warning" title="We couldn’t load this loan" testId={testId}>
      <p>{message}</p>
      <div className="status-view__actions">
        <button type="button" className="button button--primary" onClick={retry}>
          Try again
        </button>
        <Link className="button button--secondary" to={back.to}>
          {back.label}
        </Link>
      </div>
    </StatusView>
  );
}
