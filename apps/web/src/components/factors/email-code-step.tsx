import { Trans, useLingui } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { useState, type FormEvent } from 'react';
import { BusyButton } from '../busy-button';
import { CODE_LENGTH, CodeField } from './code-field';
import { shownAddress, type Factor } from './factor-choice';
import { EMAIL_CODE_REQUIRED, WRONG_EMAIL_CODE } from './factor-errors';
import type { FactorStepActions } from './factor-step-actions';
import { SendNewCode } from './send-new-code';

const EMAIL_CODE_FIELD_ID = 'sign-in-email-code';

/** MFA_REQUIRED with email codes as the one way: the code is sent when the borrower asks. */
export function EmailCodeRequest({ factor, actions }: { factor: Factor; actions: FactorStepActions }) {
  const { t } = useLingui();
  const verify = factor.verify!;
  const address = shownAddress(factor);
  return (
    <>
      <p className="factor-step__intro">
        <Trans>
          We’ll email a 6‑digit code to <strong className="factor-step__address">{address}</strong>.
        </Trans>
      </p>
      <BusyButton
        type="button"
        busy={actions.pending}
        busyText={t`Sending your code`}
        onClick={() => void actions.step(() => verify())}
      >
        <Trans>Email me a code</Trans>
      </BusyButton>
    </>
  );
}

/**
 * MFA_CHALLENGE (or MFA_ENROLL_ACTIVATE) of an email factor: the code that was sent, and a way to
 * have another sent.
 */
export function EmailCodeChallenge({
  transaction,
  actions,
  send,
}: {
  transaction: AuthnTransaction;
  actions: FactorStepActions;
  /** verify, or activate: what the code is for. */
  send: (options: { passCode: string }) => Promise<AuthnTransaction>;
}) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const [resent, setResent] = useState(false);
  const address = shownAddress(transaction.factor as Factor);
  const resend = transaction.resend as ((name: string) => Promise<AuthnTransaction>) | undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== CODE_LENGTH) return actions.fail(EMAIL_CODE_REQUIRED);
    void actions.step(() => send({ passCode: code }), WRONG_EMAIL_CODE).then(() => setCode(''));
  };
  const sendAgain = async () => {
    setResent(false);
    setCode('');
    if (resend && (await actions.step(() => resend('email')))) setResent(true);
  };

  return (
    <>
      <form className="factor-step__form" onSubmit={submit} noValidate>
        <p className="factor-step__intro">
          <Trans>
            We sent a 6‑digit code to <strong className="factor-step__address">{address}</strong>. It works
            for 5 minutes.
          </Trans>
        </p>
        <CodeField
          id={EMAIL_CODE_FIELD_ID}
          value={code}
          onChange={setCode}
          error={actions.error}
          disabled={actions.pending}
        />
        <BusyButton busy={actions.pending} busyText={t`Checking your code…`}>
          <Trans>Verify</Trans>
        </BusyButton>
      </form>
      <SendNewCode
        sent={resent}
        onSend={resend && (() => void sendAgain())}
        disabled={actions.pending}
        testId="email-code-resent"
      />
    </>
  );
}
