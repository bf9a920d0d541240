import { LOAN_PURPOSES } from '@customer-core/contracts';
import { useLingui } from '@lingui/react/macro';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField, fieldErrorId } from '../../components/form-field';
import { inPortalLanguage } from '../../i18n/in-portal-language';

interface PurposeFieldProps {
  id: string;
  input: UseFormRegisterReturn;
  error?: string | undefined;
}

/** What the loan is for: a native select, which phones show as their own picker. */
export function PurposeField({ id, input, error }: PurposeFieldProps) {
  const { t } = useLingui();
  return (
    <FormField id={id} label={t`What is the loan for?`} error={error}>
      <select
        {...input}
        id={id}
        className="text-input purpose-select"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? fieldErrorId(id) : undefined}
      >
        <option value="">{t`Choose one`}</option>
        {Object.entries(LOAN_PURPOSES).map(([value, label]) => (
          <option key={value} value={value}>
            {inPortalLanguage(label)}
          </option>
        ))}
      </select>
    </FormField>
  );
}
