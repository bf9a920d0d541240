import { routes, type LoanSummary } from '@customer-core/contracts';
import { Link } from 'react-router';
import { describeProgress } from '../../loans/checkout-progress';
import { daysLate, formatMoney } from '../../loans/loan-format';
import { hasDocumentsToSign } from '../../loans/loan-status';
import { LoanStatusBadge } from '../../loans/loan-status-badge';
import { NextPayment } from '../../loans/next-payment';

interface LoanCardProps {
  loan: LoanSummary;
  /** Open loans show their next payment; closed ones only what they were. */
  open: boolean;
}

export function LoanCard({ loan, open }: LoanCardProps) {
  const titleId = `loan-${loan.id}-title`;
  return (
    <article
      className={`loan-card${open ? '' : ' loan-card--closed'}`}
      aria-labelledby={titleId}
      data-testid="loan-card"
      data-status={loan.status}
      data-reference={loan.reference}
    >
      <header className="loan-card__header">
        <div className="loan-card__name">
          <h3 id={titleId}>
            <Link className="loan-card__link" to={routes.loanDetails.href({ loanId: loan.id })}>
              {loan.product}
            </Link>
          </h3>
          <p className="loan-card__reference">
            Loan <span data-testid="loan-reference">{loan.reference}</span>
          </p>
        </div>
        <LoanStatusBadge status={loan.status} />
      </header>
      <dl className="loan-facts">
        <div>
          <dt>Amount</dt>
          <dd data-testid="loan-amount">{formatMoney(loan.amountCents)}</dd>
        </div>
        <div>
          <dt>Balance</dt>
          <dd data-testid="loan-balance">{formatMoney(loan.balanceCents)}</dd>
        </div>
        {open && loan.overdue && (
          <div className="loan-facts__overdue">
            <dt>Past due</dt>
            <dd data-testid="loan-overdue">
              {formatMoney(loan.overdue.amountCents)}
              <span className="loan-facts__sub">{daysLate(loan.overdue.daysLate)}</span>
            </dd>
          </div>
        )}
        {open && (
          <div>
            <dt>Next payment</dt>
            <dd data-testid="loan-next-payment">
              <NextPayment payment={loan.nextPayment} />
            </dd>
          </div>
        )}
      </dl>
      {hasDocumentsToSign(loan) && <DocumentsToSign loan={loan} className="loan-card__action" />}
      {loan.checkout.status === 'completed' && (
        <p className="loan-card__documents" data-testid="loan-signed-documents">
          <Link to={routes.documents.path} aria-label={`Signed documents of loan ${loan.reference}`}>
            Signed documents
          </Link>
        </p>
      )}
    </article>
  );
}

/** The way to a loan's documents still to sign, named by the loan for a list of them. */
/** A loan's documents still to sign: how far the borrower is, and the way to its checkout. */
export function DocumentsToSign({ loan, className }: { loan: LoanSummary; className: string }) {
  return (
    <div className={className} data-testid="loan-documents-to-sign">
      <p>
        <strong>Documents to sign.</strong>{' '}
        {describeProgress({ done: loan.checkout.documentsDone, total: loan.checkout.documents })}.
      </p>
      <Link
        className="button button--primary"
        to={routes.loanCheckout.href({ loanId: loan.id })}
        aria-label={`Review and sign documents for loan ${loan.reference}`}
      >
        Review and sign documents
      </Link>
    </div>
  );
}
