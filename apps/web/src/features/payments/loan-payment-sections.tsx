import type { Autopay, BankAccount, LoanDetail, LoanPayments, Payment } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Spinner } from '../../components/spinner';
import { useLoad } from '../../lib/use-load';
import { formatCalendarDate, formatMoney } from '../../loans/loan-format';
import { AutopaySection } from './autopay-section';
import { ConfirmDialog } from './confirm-dialog';
import { PaymentHistory } from './payment-history';
import { accountLabel } from './payment-words';
import { cancelPayment, getBankAccounts, getLoanPayments, type Loaded } from './payments-api';
import './payments.css';

const PAYMENTS_TITLE_ID = 'loan-payments-title';

type SectionsState = Loaded<{ facts: LoanPayments; accounts: BankAccount[] | null }>;

async function loadSections(loanId: string, signal: AbortSignal): Promise<SectionsState> {
  const [facts, accounts] = await Promise.all([getLoanPayments(loanId, signal), getBankAccounts(signal)]);
  if (facts.kind !== 'loaded') return facts;
  // Without the accounts, the payments still show; turning autopay on says it can't.
  return {
    kind: 'loaded',
    value: { facts: facts.value, accounts: accounts.kind === 'loaded' ? accounts.value : null },
  };
}

export interface LoanPaymentSectionsProps {
  loan: LoanDetail;
  /** A payment cancelled or autopay changed: the loan is asked for again (its balance, next payment). */
  onChange: () => void;
}

/**
 * The loan page's "Payments" (what was paid or is scheduled, newest first, cancellable until the cut-off)
 * and "Autopay". After a change, both and the loan are asked for again.
 */
export function LoanPaymentSections({ loan, onChange }: LoanPaymentSectionsProps) {
  const { t, i18n } = useLingui();
  const { state, retry, reload } = useLoad((signal) => loadSections(loan.id, signal), [loan.id]);
  const [cancelling, setCancelling] = useState<Payment | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const payable = loan.status === 'ACTIVE' || loan.status === 'PAST DUE';

  const changed = (said: string) => {
    setAnnouncement(said);
    reload();
    onChange();
  };

  const amount = cancelling && formatMoney(cancelling.amountCents, i18n.locale);
  const day = cancelling && formatCalendarDate(cancelling.effectiveOn, i18n.locale);
  const account = cancelling && accountLabel(cancelling.bankAccount, i18n);
  return (
    <>
      <section
        className="loan-payments"
        aria-labelledby={PAYMENTS_TITLE_ID}
        data-testid="loan-payments"
        data-state={state.kind}
      >
        <h2 id={PAYMENTS_TITLE_ID} tabIndex={-1}>
          <Trans>Payments</Trans>
        </h2>
        {state.kind === 'loading' && (
          <p className="loan-payments__message" role="status">
            <Spinner />
            <Trans>Loading your payments…</Trans>
          </p>
        )}
        {(state.kind === 'failed' || state.kind === 'not-found') && (
          <div className="loan-payments__problem" role="alert" data-testid="loan-payments-error">
            <p>
              {state.kind === 'failed' ? (
                state.message
              ) : (
                <Trans>
                  We couldn’t load this loan’s payments just now. Please try again in a few minutes.
                </Trans>
              )}
            </p>
            <button type="button" className="button button--secondary" onClick={retry}>
              <Trans>Try again</Trans>
            </button>
          </div>
        )}
        {state.kind === 'loaded' && (
          <PaymentHistory payments={state.value.facts.payments} onCancel={setCancelling} />
        )}
      </section>
      {state.kind === 'loaded' && (payable || state.value.facts.autopay.enabled) && (
        <AutopaySection
          loan={loan}
          facts={state.value.facts}
          accounts={state.value.accounts}
          retryAccounts={reload}
          payable={payable}
          onChanged={(autopay: Autopay) => changed(autopay.enabled ? t`Autopay is on.` : t`Autopay is off.`)}
        />
      )}
      {cancelling && (
        <ConfirmDialog
          title={t`Cancel this payment?`}
          description={
            <Trans>
              {amount} from {account} on {day} won’t be debited. You can make another payment afterwards.
            </Trans>
          }
          confirmLabel={t`Cancel payment`}
          keepLabel={t`Keep payment`}
          onConfirm={async () => {
            const result = await cancelPayment(loan.id, cancelling.id);
            if (!result.ok) return result.message;
            changed(t`Payment cancelled.`);
            return null;
          }}
          onClose={() => setCancelling(null)}
          focusAfter={() => PAYMENTS_TITLE_ID}
          testId="cancel-payment-dialog"
        />
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </>
  );
}
