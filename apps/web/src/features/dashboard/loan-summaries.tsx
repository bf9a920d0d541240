import { routes, type LoanSummary } from '@customer-core/contracts';
import { Link } from 'react-router';
import { daysLate, formatCalendarDate, formatMoney, lenderToday } from '../../loans/loan-format';
import { hasDocumentsToSign } from '../../loans/loan-status';
import { LoanStatusBadge } from '../../loans/loan-status-badge';
import { DocumentsToSign } from './loan-card';

/** What is next on a loan: its payment, and its documents when some are still to sign. */
function LoanSummaryItem({ loan }: { loan: LoanSummary }) {
  const titleId = `loan-${loan.id}-summary`;
  const payment = loan.nextPayment;
  return (
    <article
      className="loan-summary"
      aria-labelledby={titleId}
      data-testid="loan-summary"
      data-status={loan.status}
      data-reference={loan.reference}
    >
      <div className="loan-summary__name">
        <h3 id={titleId}>
          <Link className="loan-card__link" to={routes.loanDetails.href({ loanId: loan.id })}>
            {loan.product}
          </Link>
        </h3>
        <p className="loan-card__reference">Loan {loan.reference}</p>
      </div>
      <LoanStatusBadge status={loan.status} />
      {loan.overdue && (
        <p className="loan-summary__overdue" data-testid="loan-overdue">
          <strong>{formatMoney(loan.overdue.amountCents)} past due</strong>, {daysLate(loan.overdue.daysLate)}
          .
        </p>
      )}
      <p className="loan-summary__next">
        {payment ? (
          <>
            Next payment <strong>{formatMoney(payment.amountCents)}</strong>{' '}
            {payment.dueOn < lenderToday() ? 'was due' : 'due'}{' '}
            <time dateTime={payment.dueOn}>{formatCalendarDate(payment.dueOn)}</time>
          </>
        ) : (
          'No payment scheduled'
        )}
      </p>
      {hasDocumentsToSign(loan) && <DocumentsToSign loan={loan} className="loan-summary__action" />}
    </article>
  );
}

/**
 * The home's summary of the loans: what is next on each open one, and the way to all of them (the
 * Loans page lists every loan in full, closed ones too).
 */
export function LoanSummaries({ open }: { open: LoanSummary[] }) {
  return (
    <>
      {open.length > 0 && (
        <ul className="loans__list" data-testid="open-loan-summaries">
          {open.map((loan) => (
            <li key={loan.id}>
              <LoanSummaryItem loan={loan} />
            </li>
          ))}
        </ul>
      )}
      <p className="loans__all">
        <Link to={routes.loans.path}>See all your loans</Link>
      </p>
    </>
  );
}
