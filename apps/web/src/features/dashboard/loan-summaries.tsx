import { routes, type LoanSummary, type Overdue } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { daysLate, formatCalendarDate, formatMoney, lenderToday } from '../../loans/loan-format';
import { hasDocumentsToSign } from '../../loans/loan-status';
import { LoanStatusBadge } from '../../loans/loan-status-badge';
import { DocumentsToSign, MakePayment } from './loan-card';

/** What is next on a loan: its payment, and its documents when some are still to sign. */
function LoanSummaryItem({ loan }: { loan: LoanSummary }) {
  const titleId = `loan-${loan.id}-summary`;
  const payment = loan.nextPayment;
  const reference = loan.reference;
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
        <p className="loan-card__reference">
          <Trans>Loan {reference}</Trans>
        </p>
      </div>
      <LoanStatusBadge status={loan.status} />
      {loan.overdue && <OverdueLine overdue={loan.overdue} />}
      <p className="loan-summary__next">
        {payment ? <NextPaymentLine payment={payment} /> : <Trans>No payment scheduled</Trans>}
      </p>
      {hasDocumentsToSign(loan) ? (
        <DocumentsToSign loan={loan} className="loan-summary__action" />
      ) : (
        <MakePayment loan={loan} className="loan-summary__action" />
      )}
    </article>
  );
}

/** "$2,312.75 past due, 12 days late." */
function OverdueLine({ overdue }: { overdue: Overdue }) {
  const { i18n } = useLingui();
  const amount = formatMoney(overdue.amountCents, i18n.locale);
  const late = daysLate(overdue.daysLate, i18n);
  return (
    <p className="loan-summary__overdue" data-testid="loan-overdue">
      <Trans>
        <strong>{amount} past due</strong>, {late}.
      </Trans>
    </p>
  );
}

/** "Next payment $1,000.00 due Jul 15, 2026" (or "was due", once that day has passed). */
function NextPaymentLine({ payment }: { payment: NonNullable<LoanSummary['nextPayment']> }) {
  const { i18n } = useLingui();
  const amount = formatMoney(payment.amountCents, i18n.locale);
  const dueOn = formatCalendarDate(payment.dueOn, i18n.locale);
  return payment.dueOn < lenderToday() ? (
    <Trans>
      Next payment <strong>{amount}</strong> was due <time dateTime={payment.dueOn}>{dueOn}</time>
    </Trans>
  ) : (
    <Trans>
      Next payment <strong>{amount}</strong> due <time dateTime={payment.dueOn}>{dueOn}</time>
    </Trans>
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
        <Link to={routes.loans.path}>
          <Trans>See all your loans</Trans>
        </Link>
      </p>
    </>
  );
}
