import { MAX_AMOUNT_REQUESTED, MIN_AMOUNT_REQUESTED } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FieldHint, fieldHintId } from '../../components/field-hint';
import { FormField, fieldErrorId } from '../../components/form-field';

/** Whole US dollars in the borrower's language: '$5,000'. */
const dollars = (value: number, locale: string) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(
    value,
  );

/**
 * What was typed, as the number the schema checks: '$50,000' and '50000' are both 50000; anything that
 * is not a number is NaN (the schema says what to enter), an empty field undefined (required).
 */
export function parseDollars(typed: unknown): number | undefined {
  if (typeof typed === 'number') return typed;
  if (typed === undefined || typed === null) return undefined;
  if (typeof typed !== 'string') return Number.NaN;
  const cleaned = typed.replace(/[\s,$]/g, '');
  if (!cleaned) return undefined;
  return /^-?\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

interface AmountFieldProps {
  id: string;
  input: UseFormRegisterReturn;
  error?: string | undefined;
}

/** The amount requested, in whole US dollars, with a $ before the digits. */
export function AmountField({ id, input, error }: AmountFieldProps) {
  const { t, i18n } = useLingui();
  const describedBy = [error && fieldErrorId(id), fieldHintId(id)].filter(Boolean).join(' ');
  const min = dollars(MIN_AMOUNT_REQUESTED, i18n.locale);
  const max = dollars(MAX_AMOUNT_REQUESTED, i18n.locale);
  return (
    <FormField id={id} label={t`Amount requested`} error={error}>
      <FieldHint fieldId={id}>
        <Trans>
          Whole US dollars, from {min} to {max}.
        </Trans>
      </FieldHint>
      <div className="amount-input">
        <span className="amount-input__currency" aria-hidden="true">
          $
        </span>
        <input
          {...input}
          id={id}
          className="text-input amount-input__input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      </div>
    </FormField>
  );
}
