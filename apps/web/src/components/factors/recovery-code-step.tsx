import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type FormEvent } from 'react';
import { BusyButton } from '../busy-button';
import { FormField, fieldErrorId } from '../form-field';
import type { Factor } from './factor-choice';
import { RECOVERY_CODE_REQUIRED, WRONG_RECOVERY_CODE } from './factor-errors';
import type { FactorStepActions } from './factor-step-actions';
import { useFocusOnRefusal } from './focus-on-refusal';

const RECOVERY_CODE_FIELD_ID = 'sign-in-recovery-code';

/** One of the borrower's saved recovery codes (xxxx-xxxx-xxxx-xxxx), in place of their usual step. */
export function RecoveryCodeForm({ factor, actions }: { factor: Factor; actions: FactorStepActions }) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useFocusOnRefusal(input, actions.error, actions.pending);
  const verify = factor.verify!;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    if (!typed) return actions.fail(RECOVERY_CODE_REQUIRED);
    void actions.step(() => verify({ passCode: typed }), WRONG_RECOVERY_CODE);
  };
  return (
    <form className="factor-step__form" onSubmit={submit} noValidate>
      <p className="factor-step__intro">
        <Trans>Enter one of the recovery codes you saved. Each code works once.</Trans>
      </p>
      <FormField id={RECOVERY_CODE_FIELD_ID} label={t`Recovery code`} error={actions.error}>
        <input
          ref={input}
          id={RECOVERY_CODE_FIELD_ID}
          className="text-input recovery-code"
          type="text"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={40}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          disabled={actions.pending}
          aria-invalid={actions.error ? true : undefined}
          aria-describedby={actions.error ? fieldErrorId(RECOVERY_CODE_FIELD_ID) : undefined}
        />
      </FormField>
      <BusyButton busy={actions.pending} busyText={t`Checking your code…`}>
        <Trans>Verify</Trans>
      </BusyButton>
    </form>
  );
}
