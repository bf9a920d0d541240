import { STEP_UP_CODE_TTL_SECONDS } from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { BusyButton } from '../busy-button';
import { CODE_LENGTH, CodeField } from '../factors/code-field';
import { SendNewCode } from '../factors/send-new-code';
import { confirmWithEmailCode, sendStepUpCode } from '../../lib/auth/step-up';
import '../factors/factors.css';

const CODE_FIELD_ID = 'step-up-email-code';
const CODE_REQUIRED = msg`Enter the 6-digit code from your email.`;
const CODE_MINUTES = STEP_UP_CODE_TTL_SECONDS / 60;

interface EmailCodeWayProps {
  /** The sign-in address the code went to. */
  sentTo: string;
  confirmLabel: string;
  onConfirmed(): void;
  /** The right code, and the borrower's second factor comes next. */
  onFactor(transaction: AuthnTransaction): void;
  /** Back to the password and the other ways. */
  onBack(): void;
  cancel: ReactNode;
}

/** The step-up's code e-mailed to the sign-in address: its entry, another code, another way. */
export function EmailCodeWay({
  sentTo,
  confirmLabel,
  onConfirmed,
  onFactor,
  onBack,
  cancel,
}: EmailCodeWayProps) {
  const { t, i18n } = useLingui();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const [resent, setResent] = useState(false);

  // The button that sent the code is gone: the field it asks for takes the focus, and takes it back
  // (enabled again) after each try and each new code.
  useEffect(() => {
    if (!pending) document.getElementById(CODE_FIELD_ID)?.focus();
  }, [pending]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) return setError(i18n._(CODE_REQUIRED));
    setError(undefined);
    setResent(false);
    setPending(true);
    try {
      const checked = await confirmWithEmailCode(code);
      if (checked.kind === 'confirmed') return onConfirmed();
      setPending(false);
      if (checked.kind === 'factor') return onFactor(checked.transaction);
      setCode('');
      setError(checked.message);
    } catch {
      setPending(false);
      setError(t`We couldn’t confirm it’s you just now. Try again, or use another way.`);
    }
  };

  const sendAgain = async () => {
    setError(undefined);
    setResent(false);
    setCode('');
    setPending(true);
    const sent = await sendStepUpCode();
    setPending(false);
    if (sent.ok) setResent(true);
    else setError(sent.message);
  };

  return (
    <>
      <form className="step-up__form" onSubmit={(event) => void submit(event)} noValidate>
        <p className="step-up__who">
          <Trans>
            We sent a 6‑digit code to <strong>{sentTo}</strong>. It works for{' '}
            <Plural value={CODE_MINUTES} one="# minute" other="# minutes" />, on this page.
          </Trans>
        </p>
        <CodeField id={CODE_FIELD_ID} value={code} onChange={setCode} error={error} disabled={pending} />
        <div className="step-up__actions">
          <BusyButton busy={pending} busyText={t`Confirming it’s you`} className="button button--primary">
            {confirmLabel}
          </BusyButton>
          {cancel}
        </div>
      </form>
      <div className="step-up__links">
        <SendNewCode
          sent={resent}
          onSend={() => void sendAgain()}
          disabled={pending}
          testId="step-up-code-resent"
          statusClassName="step-up__resent"
        />
        <button type="button" className="factor-step__link" onClick={onBack} disabled={pending}>
          <Trans>Use another way</Trans>
        </button>
      </div>
    </>
  );
}
