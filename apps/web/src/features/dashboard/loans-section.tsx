import { routes, type LoanSummary } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { Spinner } from '../../components/spinner';
import { isOpenLoan } from '../../loans/loan-status';
import { LoanCard } from './loan-card';
import { LoanSummaries } from './loan-summaries';
import { useLoans } from './use-loans';

interface LoansSectionProps {
  title?: string;
  /**
   * 'list' (the Loans page): every loan in full, open ones first, then closed ones (paid off, closed)
   * in a group of their own. 'summary' (the home): what is next on the open ones, and the way to all.
   */
  view?: 'list' | 'summary';
}

/** The borrower's loans, with their loading, failed and empty states. */
export function LoansSection({ title, view = 'list' }: LoansSectionProps) {
  const { t } = useLingui();
  const { state, retry } = useLoans();
  const loans = state.kind === 'loaded' ? state.loans : [];
  const open = loans.filter(isOpenLoan);
  const closed = loans.filter((loan) => !isOpenLoan(loan));
  return (
    <>
      <section className="loans" aria-labelledby="loans-title" data-testid="loans" data-state={state.kind}>
        <h2 id="loans-title">{title ?? t`Your loans`}</h2>
        {state.kind === 'loading' && (
          <p className="loans__message" role="status">
            <Spinner />
            <Trans>Loading your loans...</Trans>
          </p>
        )}
        {state.kind === 'failed' && (
          <div className="loans__problem" role="alert" data-testid="loans-error">
            <p>{state.message}</p>
            <button type="button" className="button button--secondary" onClick={retry}>
              <Trans>Try again</Trans>
            </button>
          </div>
        )}
        {state.kind === 'loaded' && loans.length === 0 && (
          <div className="loans__message loans__message--empty" data-testid="loans-empty">
            <p>
              <Trans>You don’t have any loans with us yet.</Trans>
            </p>
            <p>
              <Trans>
                Looking for funding? <Link to={routes.startApplication.path}>Apply for a loan</Link>
              </Trans>
            </p>
          </div>
        )}
        {state.kind === 'loaded' && loans.length > 0 && open.length === 0 && (
          <p className="loans__message">
            <Trans>You have no open loans.</Trans>
          </p>
        )}
        {view === 'summary' && loans.length > 0 && <LoanSummaries open={open} />}
        {view === 'list' && open.length > 0 && <LoanList loans={open} open testId="open-loans" />}
      </section>
      {view === 'list' && closed.length > 0 && (
        <section className="loans" aria-labelledby="closed-loans-title" data-testid="closed-loans">
          <h2 id="closed-loans-title">
            <Trans>Closed loans</Trans>
          </h2>
          <LoanList loans={closed} open={false} testId="closed-loan-list" />
        </section>
      )}
    </>
  );
}

interface LoanListProps {
  loans: LoanSummary[];
  open: boolean;
  testId: string;
}

function LoanList({ loans, open, testId }: LoanListProps) {
  return (
    <ul className="loans__list" data-testid={testId}>
      {loans.map((loan) => (
        <li key={loan.id}>
          <LoanCard loan={loan} open={open} />
        </li>
      ))}
    </ul>
  );
}
