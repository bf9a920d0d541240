import { operatorPaymentEndpoints, type BorrowerPaymentsView } from '@customer-core/contracts';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { formatCalendarDate, formatInstant, formatMoney } from '../../loans/loan-format';
import { ActionDialog } from '../components/action-dialog';
import type { Notice } from '../components/action-notice';
import { ConsoleSection } from '../components/console-section';
import { ConsoleTable } from '../components/console-table';
import { LoadedView, useConsoleLoad } from '../components/load-state';
import { useConsoleApi } from '../session/console-api';
import { useMay } from '../shell/use-may';
import {
  BANK_ACCOUNT_STATUS_LABELS,
  BANK_ACCOUNT_STATUS_TONES,
  BANK_ACCOUNT_TYPE_LABELS,
  CANCELLED_BY_LABELS,
  PAYMENT_KIND_LABELS,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUS_TONES,
  returnCodeWords,
} from './payment-words';

type StaffPayment = BorrowerPaymentsView['payments'][number];
type BankAccountView = BorrowerPaymentsView['accounts'][number];

interface PaymentsSectionProps {
  borrowerId: string;
  who: string;
  /** Changes when the page's data is loaded again (after an action). */
  refresh: number;
  noticeId: string;
  onDone(notice: Notice): void;
}

/**
 * Whether the payment could still be cancelled when loaded: scheduled, and its cut-off ahead (the API
 * gives no cancellableUntil once it has passed). Past it since, the API refuses, and the dialog says so.
 */
const cancellable = (payment: StaffPayment): boolean =>
  payment.status === 'scheduled' && payment.cancellableUntil !== null;

/**
 * How the borrower pays: their bank accounts (the last four digits only), autopay on each loan, and
 * their payments, newest first. Support can cancel a scheduled payment until its cut-off, with a reason.
 */
export function PaymentsSection({ borrowerId, who, refresh, noticeId, onDone }: PaymentsSectionProps) {
  const { t } = useLingui();
  const api = useConsoleApi();
  const may = useMay();
  const [reloads, setReloads] = useState(0);
  const [cancelling, setCancelling] = useState<StaffPayment | null>(null);
  const { state, retry } = useConsoleLoad(
    (signal) => api.call(operatorPaymentEndpoints.borrowerPayments, { params: { borrowerId }, signal }),
    [borrowerId, refresh, reloads],
  );
  const mayCancel = may(operatorPaymentEndpoints.cancelPayment);

  return (
    <ConsoleSection
      id="borrower-payments"
      title={t`Payments`}
      intro={t`The borrower’s bank accounts, autopay on each loan, and their payments, newest first.`}
    >
      <LoadedView state={state} retry={retry}>
        {(view) => (
          <>
            <div className="console-columns">
              <BankAccounts accounts={view.accounts} />
              <Autopays autopays={view.autopays} />
            </div>
            <div className="console-columns">
              <div>
                <h3>{t`Payment history`}</h3>
                {view.payments.length === 0 ? (
                  <p className="console-empty">{t`No payments yet.`}</p>
                ) : (
                  <PaymentsTable
                    payments={view.payments}
                    mayCancel={mayCancel}
                    onCancel={(payment) => setCancelling(payment)}
                  />
                )}
              </div>
            </div>
          </>
        )}
      </LoadedView>

      {cancelling && (
        <CancelPaymentDialog
          payment={cancelling}
          who={who}
          noticeId={noticeId}
          onDone={onDone}
          onStale={() => setReloads((count) => count + 1)}
          onClose={() => setCancelling(null)}
        />
      )}
    </ConsoleSection>
  );
}

/** "JPMorgan Chase Bank ••6789", or "Bank not listed ••6789" for a routing number the directory lacks. */
function useAccountName() {
  const { t } = useLingui();
  return (account: { bankName: string | null; last4: string }) => {
    const { bankName: bank, last4 } = account;
    return bank ? t`${bank} ••${last4}` : t`Bank not listed ••${last4}`;
  };
}

function BankAccounts({ accounts }: { accounts: BankAccountView[] }) {
  const { t, i18n } = useLingui();
  const accountName = useAccountName();
  return (
    <div>
      <h3>{t`Bank accounts`}</h3>
      {accounts.length === 0 ? (
        <p className="console-empty">{t`No bank accounts yet.`}</p>
      ) : (
        <ConsoleTable
          caption={t`Bank accounts`}
          testId="bank-accounts-table"
          head={
            <>
              <th scope="col">{t`Account`}</th>
              <th scope="col">{t`Type`}</th>
              <th scope="col">{t`State`}</th>
            </>
          }
        >
          {accounts.map((account) => {
            const routing = account.routingNumber;
            const tries = account.triesLeft;
            return (
              <tr key={account.id} data-status={account.status}>
                <th scope="row">
                  {accountName(account)}
                  <span className="console-cell-note">{t`Routing number ${routing}`}</span>
                </th>
                <td>{i18n._(BANK_ACCOUNT_TYPE_LABELS[account.type])}</td>
                <td className="console-table__wrap">
                  <span className={`console-tag console-tag--${BANK_ACCOUNT_STATUS_TONES[account.status]}`}>
                    {i18n._(BANK_ACCOUNT_STATUS_LABELS[account.status])}
                  </span>
                  {account.status === 'pending_verification' && (
                    <span className="console-cell-note">
                      {account.microDepositsSent
                        ? i18n._(
                            msg`Micro-deposits sent: ${plural(tries, { one: '# try left', other: '# tries left' })}.`,
                          )
                        : t`Micro-deposits not sent yet.`}
                    </span>
                  )}
                  {account.returnCode && (
                    <span className="console-cell-note">{returnCodeWords(account.returnCode, i18n)}</span>
                  )}
                </td>
              </tr>
            );
          })}
        </ConsoleTable>
      )}
    </div>
  );
}

function Autopays({ autopays }: { autopays: BorrowerPaymentsView['autopays'] }) {
  const { t } = useLingui();
  return (
    <div>
      <h3>{t`Autopay`}</h3>
      {autopays.length === 0 ? (
        <p className="console-empty">{t`Autopay isn’t on for any loan.`}</p>
      ) : (
        <ConsoleTable
          caption={t`Autopay`}
          testId="autopay-table"
          head={
            <>
              <th scope="col">{t`Loan`}</th>
              <th scope="col">{t`Autopay`}</th>
            </>
          }
        >
          {autopays.map((autopay) => {
            const last4 = autopay.last4 ?? '';
            return (
              <tr key={autopay.loanId}>
                <th scope="row" className="console-code">
                  {autopay.loanReference}
                </th>
                <td>
                  {autopay.enabled ? (
                    <span className="console-tag console-tag--good">
                      {last4
                        ? t({ message: `On, from ••${last4}`, context: 'autopay' })
                        : t({ message: 'On', context: 'autopay' })}
                    </span>
                  ) : (
                    <span className="console-tag console-tag--muted">
                      {t({ message: 'Off', context: 'autopay' })}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </ConsoleTable>
      )}
    </div>
  );
}

interface PaymentsTableProps {
  payments: StaffPayment[];
  mayCancel: boolean;
  onCancel(payment: StaffPayment): void;
}

function PaymentsTable({ payments, mayCancel, onCancel }: PaymentsTableProps) {
  const { t, i18n } = useLingui();
  const accountName = useAccountName();
  const actions = mayCancel && payments.some(cancellable);
  return (
    <ConsoleTable
      caption={t`Payment history`}
      testId="payments-table"
      head={
        <>
          <th scope="col">{t`Reference`}</th>
          <th scope="col">{t`Loan`}</th>
          <th scope="col">{t`Date`}</th>
          <th scope="col" className="console-table__number">
            {t`Amount`}
          </th>
          <th scope="col">{t`Account`}</th>
          <th scope="col">{t`Kind`}</th>
          <th scope="col">{t`Status`}</th>
          {actions && (
            <th scope="col">
              <span className="visually-hidden">{t`Actions`}</span>
            </th>
          )}
        </>
      }
    >
      {payments.map((payment) => {
        const until = payment.cancellableUntil ? formatInstant(payment.cancellableUntil) : '';
        const settledAt = payment.settledAt ? formatInstant(payment.settledAt) : '';
        const reason = payment.cancelReason;
        return (
          <tr key={payment.id} data-status={payment.status} data-reference={payment.reference}>
            <th scope="row" className="console-code">
              {payment.reference}
            </th>
            <td className="console-code">{payment.loanReference}</td>
            <td>{formatCalendarDate(payment.effectiveOn)}</td>
            <td className="console-table__number">{formatMoney(payment.amountCents)}</td>
            <td>{accountName(payment.bankAccount)}</td>
            <td>{i18n._(PAYMENT_KIND_LABELS[payment.kind])}</td>
            <td className="console-table__wrap" data-testid="payment-status">
              <span className={`console-tag console-tag--${PAYMENT_STATUS_TONES[payment.status]}`}>
                {i18n._(PAYMENT_STATUS_LABELS[payment.status])}
              </span>
              {cancellable(payment) && (
                <span className="console-cell-note">{t`Can be cancelled until ${until}.`}</span>
              )}
              {payment.status === 'settled' && settledAt && (
                <span className="console-cell-note">{t`Settled ${settledAt}.`}</span>
              )}
              {payment.returnCode && (
                <span className="console-cell-note">{returnCodeWords(payment.returnCode, i18n)}</span>
              )}
              {payment.cancelledBy && (
                <span className="console-cell-note">{i18n._(CANCELLED_BY_LABELS[payment.cancelledBy])}</span>
              )}
              {payment.status === 'cancelled' && reason && (
                <span className="console-cell-note">{t`Reason: ${reason}`}</span>
              )}
            </td>
            {actions && (
              <td className="console-table__action">
                {mayCancel && cancellable(payment) && (
                  <button
                    type="button"
                    className="button console-button--danger-outline console-button--small"
                    onClick={() => onCancel(payment)}
                    data-testid="cancel-payment"
                  >
                    <Trans>Cancel payment</Trans>
                    <span className="visually-hidden"> {payment.reference}</span>
                  </button>
                )}
              </td>
            )}
          </tr>
        );
      })}
    </ConsoleTable>
  );
}

interface CancelPaymentDialogProps {
  payment: StaffPayment;
  who: string;
  noticeId: string;
  onDone(notice: Notice): void;
  /** The payment was on its way already: the section loads again to show where it is. */
  onStale(): void;
  onClose(): void;
}

/** Cancelling a scheduled payment, with the reason (required: it's kept with the payment and audited). */
function CancelPaymentDialog({ payment, who, noticeId, onDone, onStale, onClose }: CancelPaymentDialogProps) {
  const { t } = useLingui();
  const api = useConsoleApi();
  const accountName = useAccountName();
  const reference = payment.reference;
  const amount = formatMoney(payment.amountCents);
  const day = formatCalendarDate(payment.effectiveOn);
  const account = accountName(payment.bankAccount);
  const loan = payment.loanReference;
  return (
    <ActionDialog
      title={t`Cancel this payment`}
      description={
        <>
          <p>
            <Trans>
              Payment <strong>{reference}</strong> of {amount} from {account} on {day}, for loan {loan}, won’t
              be debited. We’ll email <strong>{who}</strong> to say so.
            </Trans>
          </p>
          <p>
            <Trans>The reason is kept with the payment and in the audit trail.</Trans>
          </p>
        </>
      }
      confirmLabel={t`Cancel payment`}
      busyText={t`Cancelling the payment`}
      danger
      reasonRequired
      onConfirm={async (reason) => {
        const outcome = await api.call(
          operatorPaymentEndpoints.cancelPayment,
          { params: { paymentId: payment.id }, body: { reason }, reason },
          { fallback: msg`This payment can’t be cancelled any more.` },
        );
        if (!outcome.ok) {
          // On its way to the bank meanwhile: the table shows where it is now.
          if (outcome.failure.status === 409 || outcome.failure.status === 404) onStale();
          return outcome.failure;
        }
        onDone({
          type: 'success',
          text: t`Payment ${reference} is cancelled. The borrower will be emailed.`,
        });
        return null;
      }}
      onClose={onClose}
      focusOnDone={noticeId}
      testId="cancel-payment-dialog"
    />
  );
}
