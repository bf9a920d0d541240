import { LOAN_STATUSES, type LoanStatus } from '@customer-core/contracts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { ComponentPropsWithRef } from 'react';
import { FormField, fieldErrorId } from '../../components/form-field';
import { TextField } from '../../components/text-field';

/** Each status in staff's words (HIDDEN: a loan the borrower doesn't see). */
export const STATUS_LABELS: Record<LoanStatus, MessageDescriptor> = {
  ACTIVE: msg`Active`,
  'PAST DUE': msg`Past due`,
  PAID: msg`Paid off`,
  'CLOSED LOST': msg`Closed (lost)`,
  HIDDEN: msg`Hidden from the borrower`,
};

export const AMOUNT_PROBLEM = msg`Enter an amount in dollars, e.g. 1,250.00.`;
export const REFERENCE_PROBLEM = msg`A reference is 3 to 32 capital letters, digits or dashes, e.g. LN-204518.`;
export const PRODUCT_PROBLEM = msg`Enter the product, at most 80 characters.`;
export const DATE_PROBLEM = msg`Enter a date.`;
export const NEXT_PAYMENT_PROBLEM = msg`Give both the next payment’s date and amount, or neither.`;

type InputProps = Omit<ComponentPropsWithRef<'input'>, 'id'>;

/** An amount typed in dollars (sent in cents): a dollar sign before it, said to screen readers too. */
export function MoneyField({
  id,
  label,
  input,
  error,
}: {
  id: string;
  label: string;
  input: InputProps;
  error?: string | undefined;
}) {
  const { t } = useLingui();
  const describedBy = [error && fieldErrorId(id), `${id}-unit`].filter(Boolean).join(' ');
  return (
    <FormField id={id} label={label} error={error}>
      <span id={`${id}-unit`} className="visually-hidden">
        {t`In dollars`}
      </span>
      <div className="console-money">
        <span className="console-money__sign" aria-hidden="true">
          $
        </span>
        <input
          type="text"
          {...input}
          id={id}
          className="text-input"
          inputMode="decimal"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      </div>
    </FormField>
  );
}

/** A calendar day (YYYY-MM-DD, as the browser's date field gives it). */
export function DateField({
  id,
  label,
  input,
  error,
}: {
  id: string;
  label: string;
  input: InputProps;
  error?: string | undefined;
}) {
  return <TextField id={id} label={label} input={{ ...input, type: 'date' }} error={error} />;
}

/** The status options, each in words. */
export function StatusOptions() {
  const { i18n } = useLingui();
  return LOAN_STATUSES.map((status) => (
    <option key={status} value={status}>
      {/* The API's own name too, which its refusals use ("a PAID loan has no balance left"). */}
      {i18n._(STATUS_LABELS[status])} ({status})
    </option>
  ));
}
