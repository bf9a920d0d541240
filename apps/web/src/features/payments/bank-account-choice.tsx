import { routes, type BankAccount } from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { FieldError, fieldErrorId } from '../../components/form-field';
import { accountLabel } from './payment-words';

const TYPE_LABELS: Record<BankAccount['type'], MessageDescriptor> = {
  checking: msg`Checking`,
  savings: msg`Savings`,
};

export const verifiedAccounts = (accounts: BankAccount[]) => accounts.filter((a) => a.status === 'verified');

interface BankAccountChoiceProps {
  /** The group's id: its radios' ids and its error's are made from it. */
  id: string;
  legend: ReactNode;
  accounts: BankAccount[];
  input: UseFormRegisterReturn;
  error: string | undefined;
}

/**
 * The borrower's verified bank accounts as radio cards ("Chase ••1234", checking, the name on it), with
 * the way to add or verify another; with none verified, only that way (NoUsableAccount).
 */
export function BankAccountChoice({ id, legend, accounts, input, error }: BankAccountChoiceProps) {
  const { i18n } = useLingui();
  const usable = verifiedAccounts(accounts);
  return (
    <fieldset
      className="pay-choice"
      aria-describedby={error ? fieldErrorId(id) : undefined}
      data-testid="bank-account-choice"
    >
      <legend className="pay-choice__legend">{legend}</legend>
      <div className="pay-choice__options">
        {usable.map((account) => {
          const optionId = `${id}-${account.id}`;
          const type = i18n._(TYPE_LABELS[account.type]);
          const holder = account.holderName;
          return (
            <label key={account.id} className="pay-option" htmlFor={optionId}>
              <input
                {...input}
                id={optionId}
                type="radio"
                value={account.id}
                aria-describedby={`${optionId}-detail`}
              />
              <span className="pay-option__text">
                <span className="pay-option__title">{accountLabel(account, i18n)}</span>
                <span className="pay-option__detail" id={`${optionId}-detail`}>
                  <Trans>
                    {type} · {holder}
                  </Trans>
                </span>
              </span>
            </label>
          );
        })}
      </div>
      {error && <FieldError id={id} message={error} />}
      <p className="pay-choice__more">
        <Link to={routes.bankAccounts.path}>
          <Trans>Add or verify a bank account</Trans>
        </Link>
      </p>
    </fieldset>
  );
}

/**
 * No verified account to pay from: what to do first, and the way there (an account waiting for its
 * micro-deposits is said so).
 */
export function NoUsableAccount({
  accounts,
  purpose,
}: {
  accounts: BankAccount[];
  purpose: 'pay' | 'autopay';
}) {
  const { i18n } = useLingui();
  const waiting = accounts.find((a) => a.status === 'pending_verification');
  const waitingName = waiting && accountLabel(waiting, i18n);
  return (
    <div className="pay-no-account" data-testid="no-bank-account">
      <p className="pay-no-account__title">
        {purpose === 'pay' ? (
          <Trans>To pay online, you need a verified business bank account.</Trans>
        ) : (
          <Trans>To turn on autopay, you need a verified business bank account.</Trans>
        )}
      </p>
      {waiting ? (
        <p>
          <Trans>
            {waitingName} is waiting for verification: enter the amounts of the two small deposits we sent it.
          </Trans>
        </p>
      ) : (
        <p>
          <Trans>
            Add your business bank account. We’ll send it two small deposits, which take 1–3 business days to
            arrive: enter their amounts to verify it.
          </Trans>
        </p>
      )}
      <Link className="button button--primary" to={routes.bankAccounts.path}>
        {waiting ? <Trans>Verify your bank account</Trans> : <Trans>Add a bank account</Trans>}
      </Link>
    </div>
  );
}
