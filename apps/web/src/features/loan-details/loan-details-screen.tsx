import { routes, type LoanDetail } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense, type ComponentType } from 'react';
import { Link, useParams } from 'react-router';
import { Loading } from '../../components/loading';
import { PageTitle } from '../../components/page-title';
import { BackLink } from '../../components/signed-in-shell/back-link';
import { describeProgress } from '../../loans/checkout-progress';
import { formatMoney } from '../../loans/loan-format';
import { LoanLoadFailed } from '../../loans/loan-load-failed';
import { LoanNotFound } from '../../loans/loan-not-found';
import { LoanStatusBadge } from '../../loans/loan-status-badge';
import { OverdueNotice } from './overdue-notice';
import { PaymentSchedule } from './payment-schedule';
import { useLoan } from './use-loan';
import './loan-details.css';
import { NextPayment } from '../../loans/next-payment';

/** The loan's payments and autopay, from the payments feature (the router puts them in: features apart). */
export type LoanPaymentsPart = ComponentType<{ loan: LoanDetail; onChange: () => void }>;

/** /ui/dashboard/loans/{loanId}: a loan's terms, where it stands, its payments and payment schedule. */
export function LoanDetailsScreen({ payments }: { payments?: LoanPaymentsPart }) {
  const { t } = useLingui();
  const { loanId = '' } = useParams();
  const { state, retry, reload } = useLoan(loanId);
  switch (state.kind) {
    case 'loading':
      return <Loading />;
    case 'not-found':
      return <LoanNotFound />;
    case 'failed':
      return (
        <LoanLoadFailed
          message={state.message}
          retry={retry}
          back={{ to: routes.loans.path, label: t`Back to your loans` }}
          testId="loan-details-error"
        />
      );
    case 'loaded':
      return <LoanDetails loan={state.loan} Payments={payments} onChange={reload} />;
  }
}

function LoanDetails({
  loan,
  Payments,
  onChange,
}: {
  loan: LoanDetail;
  Payments: LoanPaymentsPart | undefined;
  onChange: () => void;
}) {
  const { t, i18n } = useLingui();
  const reference = loan.reference;
  const open = loan.status === 'ACTIVE' || loan.status === 'PAST DUE';
  const toSign = loan.status === 'ACTIVE' && loan.checkout.documentsDone < loan.checkout.documents;
  const progress = describeProgress(
    { done: loan.checkout.documentsDone, total: loan.checkout.documents },
    i18n,
  );
  return (
    <article
      className="loan-details"
      aria-labelledby="loan-details-title"
      data-testid="loan-details"
      data-status={loan.status}
      data-layout="wide"
    >
      <PageTitle title={`${loan.product} ${loan.reference}`} />
      <BackLink to={routes.loans.path} label={t`Back to your loans`} />
      <header className="loan-details__header">
        <div>
          <h1 id="loan-details-title">{loan.product}</h1>
          <p className="loan-details__reference">
            <Trans>Loan {reference}</Trans>
          </p>
        </div>
        <LoanStatusBadge status={loan.status} />
      </header>

      {(loan.overdue || loan.status === 'PAST DUE') && <OverdueNotice overdue={loan.overdue} />}
      {/* Paying is always offered on an open loan; signing its documents stays the first thing to do. */}
      {open && (
        <div className="loan-details__action" data-testid="loan-pay">
          <p>
            <Trans>
              <strong>Pay online</strong> from your business bank account, on a banking day you choose.
            </Trans>
          </p>
          <Link
            className={`button ${toSign ? 'button--secondary' : 'button--primary'}`}
            to={routes.payLoan.href({ loanId: loan.id })}
          >
            <Trans>Make a payment</Trans>
          </Link>
        </div>
      )}

      <dl className="loan-facts loan-details__facts">
        <div>
          <dt>
            <Trans>Amount</Trans>
          </dt>
          <dd>{formatMoney(loan.amountCents, i18n.locale)}</dd>
        </div>
        <div>
          <dt>
            <Trans>Balance</Trans>
          </dt>
          <dd data-testid="loan-balance">{formatMoney(loan.balanceCents, i18n.locale)}</dd>
        </div>
        {open && (
          <div>
            <dt>
              <Trans>Next payment</Trans>
            </dt>
            <dd>
              <NextPayment payment={loan.nextPayment} />
            </dd>
          </div>
        )}
      </dl>

      {toSign && (
        <div className="loan-details__action" data-testid="loan-documents-to-sign">
          <p>
            <Trans>
              <strong>Documents to sign.</strong> {progress}.
            </Trans>
          </p>
          <Link className="button button--primary" to={routes.loanCheckout.href({ loanId: loan.id })}>
            <Trans>Review and sign documents</Trans>
          </Link>
        </div>
      )}

      {Payments && (
        <Suspense fallback={null}>
          <Payments loan={loan} onChange={onChange} />
        </Suspense>
      )}

      <section className="loan-details__schedule" aria-labelledby="schedule-title">
        <h2 id="schedule-title">
          <Trans>Payment schedule</Trans>
        </h2>
        <PaymentSchedule instalments={loan.instalments} hasNextPayment={open && loan.nextPayment !== null} />
      </section>
    </article>
  );
}
