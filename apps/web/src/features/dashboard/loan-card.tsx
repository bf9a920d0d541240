import { routes, type LoanSummary } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t, i18n } = useLingui();
  const reference = loan.reference;
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
            <Trans>
              Loan <span data-testid="loan-reference">{reference}</span>
            </Trans>
          </p>
        </div>
        <LoanStatusBadge status={loan.status} />
      </header>
      <dl className="loan-facts">
        <div>
          <dt>
            <Trans>Amount</Trans>
          </dt>
          <dd data-testid="loan-amount">{formatMoney(loan.amountCents, i18n.locale)}</dd>
        </div>
        <div>
          <dt>
            <Trans>Balance</Trans>
          </dt>
          <dd data-testid="loan-balance">{formatMoney(loan.balanceCents, i18n.locale)}</dd>
        </div>
        {open && loan.overdue && (
          <div className="loan-facts__overdue">
            <dt>
              <Trans>Past due</Trans>
            </dt>
            <dd data-testid="loan-overdue">
              {formatMoney(loan.overdue.amountCents, i18n.locale)}
              <span className="loan-facts__sub">{daysLate(loan.overdue.daysLate, i18n)}</span>
            </dd>
          </div>
        )}
        {open && (
          <div>
            <dt>
              <Trans>Next payment</Trans>
            </dt>
            <dd data-testid="loan-next-payment">
              <NextPayment payment={loan.nextPayment} />
            </dd>
          </div>
        )}
      </dl>
      {hasDocumentsToSign(loan) && <DocumentsToSign loan={loan} className="loan-card__action" />}
      {open && !hasDocumentsToSign(loan) && <MakePayment loan={loan} className="loan-card__action" />}
      {loan.checkout.status === 'completed' && (
        <p className="loan-card__documents" data-testid="loan-signed-documents">
          <Link to={routes.documents.path} aria-label={t`Signed documents of loan ${reference}`}>
            <Trans>Signed documents</Trans>
          </Link>
        </p>
      )}
    </article>
  );
}

/** An open loan's main action (once its documents are signed): the way to pay it, named by the loan. */
export function MakePayment({ loan, className }: { loan: LoanSummary; className: string }) {
  const { t } = useLingui();
  const reference = loan.reference;
  return (
    <div className={className} data-testid="loan-pay">
      <p>
        <Trans>
          <strong>Pay online</strong> from your business bank account, on a banking day you choose.
        </Trans>
      </p>
      <Link
        className="button button--primary"
        to={routes.payLoan.href({ loanId: loan.id })}
        aria-label={t`Make a payment on loan ${reference}`}
      >
        <Trans>Make a payment</Trans>
      </Link>
    </div>
  );
}

/** The way to a loan's documents still to sign, named by the loan for a list of them. */
/** A loan's documents still to sign: how far the borrower is, and the way to its checkout. */
export function DocumentsToSign({ loan, className }: { loan: LoanSummary; className: string }) {
  const { t, i18n } = useLingui();
  const progress = describeProgress(
    { done: loan.checkout.documentsDone, total: loan.checkout.documents },
    i18n,
  );
  const reference = loan.reference;
  return (
    <div className={className} data-testid="loan-documents-to-sign">
      <p>
        <Trans>
          <strong>Documents to sign.</strong> {progress}.
        </Trans>
      </p>
      <Link
        className="button button--primary"
        to={routes.loanCheckout.href({ loanId: loan.id })}
        aria-label={t`Review and sign documents for loan ${reference}`}
      >
        <Trans>Review and sign documents</Trans>
      </Link>
    </div>
  );
}
