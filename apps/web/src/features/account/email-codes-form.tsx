import type { EmailCodeEnrolment } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { FormActions } from '../../components/form-actions';
import { CodeField } from '../../components/factors/code-field';
import { SendNewCode } from '../../components/factors/send-new-code';
import { EMAIL_CODE_REQUIRED } from '../../components/factors/factor-errors';
import { resendEmailCode } from './email-codes-api';
import '../../components/factors/factors.css';
import { useFirstCode } from './use-first-code';

const EMAIL_CODE_ID = 'email-codes-code';
const TURN_ON_ID = 'email-codes-turn-on';

/** Turning on email codes: the code just mailed to the sign-in address confirms it. */
export function AddEmailCodesForm({
  enrolment,
  onAdded,
  onCancel,
  onStartAgain,
  onFailed,
}: {
  enrolment: EmailCodeEnrolment;
  onAdded(): void;
  onCancel(): void;
  onStartAgain(message: string): void;
  onFailed(message: string): void;
}) {
  const { t } = useLingui();
  const { code, setCode, error, setError, pending, setPending, heading, submit, stepUpDialog } = useFirstCode(
    {
      factorId: enrolment.factorId,
      codeRequired: EMAIL_CODE_REQUIRED,
      onAdded,
      onStartAgain,
      onFailed,
    },
  );
  const [resent, setResent] = useState(false);
  const sentTo = enrolment.sentTo;
  const sendAgain = async () => {
    setPending(true);
    setResent(false);
    setError(undefined);
    const problem = await resendEmailCode(enrolment.factorId);
    setPending(false);
    if (problem) setError(problem);
    else setResent(true);
  };

  return (
    <>
      <form className="factor-step account-factors__add" onSubmit={(e) => void submit(e)} noValidate>
        <h3 ref={heading} tabIndex={-1}>
          <Trans>Check your email</Trans>
        </h3>
        <p className="factor-step__intro">
          <Trans>
            We sent a 6‑digit code to <strong>{sentTo}</strong>. Enter it to turn on email codes. It works for
            5 minutes.
          </Trans>
        </p>
        <CodeField id={EMAIL_CODE_ID} value={code} onChange={setCode} error={error} disabled={pending} />
        <SendNewCode
          sent={resent}
          onSend={() => void sendAgain()}
          disabled={pending}
          testId="email-codes-resent"
        />
        <FormActions id={TURN_ON_ID} busy={pending} busyText={t`Turning on email codes`} onCancel={onCancel}>
          <Trans>Turn on email codes</Trans>
        </FormActions>
      </form>
      {stepUpDialog(TURN_ON_ID)}
    </>
  );
}
