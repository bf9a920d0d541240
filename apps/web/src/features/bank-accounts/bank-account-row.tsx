import type { BankAccount } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { MessageWithPhone } from '../../components/message-with-phone';
import { SupportPhone } from '../../components/support-phone';
import { getLenderBranding } from '../../config/portal-config-meta';
import type { RemoveOutcome } from './bank-accounts-api';
import { bankName, returnReason, statusLabel, typeLabel } from './bank-account-words';
import { RemoveBankAccount } from './remove-bank-account';
import { VerifyForm, type VerifyResult } from './verify-form';

export interface RowNotice {
  tone: 'done' | 'problem';
  text: string;
  /** Whether it takes the focus (a refusal whose button has closed its dialog). */
  takeFocus?: boolean;
}

/** "Call us at (800) 555-0142 and we’ll help.", the number a tel: link; without one where none is set. */
function CallUs() {
  return getLenderBranding().supportPhone ? (
    <Trans>
      Call us at <SupportPhone /> and we’ll help.
    </Trans>
  ) : (
    <Trans>Call us and we’ll help.</Trans>
  );
}

/** What the account's state means for the borrower, and what to do about it. */
function StateText({ account }: { account: BankAccount }) {
  const reason = account.returnCode && returnReason(account.returnCode);
  switch (account.status) {
    case 'pending_verification':
      // Once sent, the verify form says what to do.
      return account.microDepositsSent ? null : (
        <p className="bank-account__state-text">
          <Trans>
            Two small deposits will reach this account in 1–3 business days. When you see them, come back here
            and enter their amounts to verify the account.
          </Trans>
        </p>
      );
    case 'verified':
      return (
        <p className="bank-account__state-text">
          <Trans>You can pay your loans from this account.</Trans>
        </p>
      );
    case 'failed':
      return (
        <p className="bank-account__state-text">
          {reason ? (
            <>
              <Trans>The two small deposits we sent came back.</Trans> {reason}
            </>
          ) : (
            <Trans>The amounts entered three times didn’t match the deposits we sent.</Trans>
          )}{' '}
          <Trans>We couldn’t verify this account.</Trans> <CallUs />
        </p>
      );
    case 'disabled':
      return (
        <p className="bank-account__state-text">
          {reason && <>{reason} </>}
          <Trans>We can’t take payments from this account now. Add another account to pay from.</Trans>
        </p>
      );
  }
}

interface BankAccountRowProps {
  account: BankAccount;
  notice: RowNotice | null;
  onVerified(result: VerifyResult): void;
  onRemoved(outcome: Exclude<RemoveOutcome, { kind: 'step-up' }>): void;
}

/**
 * One bank account: its bank and last four digits, its type and state in words (a badge, and what to
 * do), the amounts form while it waits for them, and Remove. The row itself takes the focus once it is
 * added or verified (the screen's doing), and what just happened is said in it.
 */
export function BankAccountRow({ account, notice, onVerified, onRemoved }: BankAccountRowProps) {
  const { i18n } = useLingui();
  const nameId = `bank-account-${account.id}-name`;
  const name = bankName(account, i18n);
  const last4 = account.last4;
  const noticeRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (notice?.takeFocus) noticeRef.current?.focus();
  }, [notice]);

  return (
    <li
      id={`bank-account-${account.id}`}
      className="bank-account"
      tabIndex={-1}
      aria-labelledby={nameId}
      data-testid="bank-account-row"
      data-status={account.status}
    >
      <div className="bank-account__summary">
        <div className="bank-account__text">
          <h3 id={nameId} className="bank-account__name">
            <span>{name}</span>{' '}
            <span className="bank-account__last4" aria-hidden="true">
              ••{last4}
            </span>
            <span className="visually-hidden">
              <Trans>ending in {last4}</Trans>
            </span>
          </h3>
          <p className="bank-account__details">
            <span>{typeLabel(account.type, i18n)}</span>
            <span aria-hidden="true"> · </span>
            <span className="bank-account__holder">{account.holderName}</span>
          </p>
          <p>
            <span
              className={`bank-account__status bank-account__status--${account.status}`}
              data-testid="bank-account-status"
            >
              {statusLabel(account.status, i18n)}
            </span>
          </p>
        </div>
      </div>
      <StateText account={account} />
      <p
        ref={noticeRef}
        className={`bank-accounts__notice${notice ? ` bank-accounts__notice--${notice.tone}` : ''}`}
        role={notice?.tone === 'problem' ? 'alert' : 'status'}
        tabIndex={-1}
        data-testid="bank-account-notice"
      >
        {notice && <MessageWithPhone message={notice.text} />}
      </p>
      {account.status === 'pending_verification' && account.microDepositsSent && (
        <VerifyForm account={account} nameId={nameId} onDone={onVerified} />
      )}
      {/* Last on a phone, under what it removes; at the row's end beside its name on a desktop. */}
      <RemoveBankAccount account={account} nameId={nameId} onOutcome={onRemoved} />
    </li>
  );
}
