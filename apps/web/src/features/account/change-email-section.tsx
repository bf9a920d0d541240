import { ChangeEmailRequestSchema } from '@customer-core/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Banner } from '../../components/banner';
import { ReadOnlyField } from '../../components/read-only-field';
import { BusyButton } from '../../components/busy-button';
import { StepUpDialog } from '../../components/step-up/step-up-dialog';
import { SupportPhone } from '../../components/support-phone';
import { TextField } from '../../components/text-field';
import { getLenderBranding } from '../../config/portal-config-meta';
import { useLoad } from '../../lib/use-load';
import { changeEmail, getAccountEmail } from './account-api';

const NEW_EMAIL_ID = 'change-email-new';
const SUBMIT_ID = 'change-email-submit';

const sentNotice = (newEmail: string, current: string) =>
  `We’ve sent a link to ${newEmail}. Open it while you’re signed in to finish the change. Until then, you sign in with ${current}.`;

/**
 * Change email: the new address gets a link, and nothing changes until it is used (the link page).
 * With a hosted Okta org the lender changes it: the section says so. A sign-in too old for it opens
 * the step-up dialog over the form, which keeps what was typed, and the request is made again.
 */
export function ChangeEmailSection() {
  const { state: account } = useLoad(getAccountEmail, []);
  const [newEmail, setNewEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [stepUp, setStepUp] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  const send = async () => {
    const parsed = ChangeEmailRequestSchema.safeParse({ newEmail });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Invalid email address.');
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    const outcome = await changeEmail(parsed.data);
    setPending(false);
    switch (outcome.kind) {
      case 'sent':
        setNewEmail('');
        setDone(sentNotice(parsed.data.newEmail, account.kind === 'loaded' ? account.email : ''));
        return;
      case 'step-up':
        setStepUp(outcome.message);
        return;
      case 'refused':
        setFieldError(outcome.message);
        inputRef.current?.focus();
        return;
      case 'failed':
        setFailure(outcome.message);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setDone(null);
    void send();
  };

  return (
    <section className="account__section" aria-labelledby="account-email-title" data-testid="account-email">
      <header className="account__section-header">
        <h2 id="account-email-title">Change your email address</h2>
        <p>You sign in with your email address, and it’s where we write to you.</p>
      </header>
      {account.kind === 'failed' && (
        <p
          className="account__notice account__notice--problem"
          role="alert"
          data-testid="account-email-load-error"
        >
          {account.message}
        </p>
      )}
      {account.kind === 'loaded' && !account.changeable && (
        <p className="account-email__with-lender" data-testid="account-email-with-lender">
          Your sign-in email address is {account.email}. To change it, call {getLenderBranding().name} at{' '}
          <SupportPhone />.
        </p>
      )}
      {account.kind === 'loaded' && account.changeable && (
        <>
          <p
            className={`account__notice${done ? ' account__notice--done' : ''}`}
            role="status"
            tabIndex={-1}
            ref={doneRef}
            data-testid="account-email-notice"
          >
            {done}
          </p>
          {failure && (
            <Banner type="error" onDismiss={() => setFailure(null)} testId="account-email-error">
              {failure}
            </Banner>
          )}
          <form className="account-email__form" onSubmit={submit} noValidate>
            <ReadOnlyField
              id="change-email-current"
              label="Current email address"
              value={account.email}
              hint="Until you open the link we send to the new address, you keep signing in with this one."
            />
            <TextField
              id={NEW_EMAIL_ID}
              label="New email address"
              error={fieldError ?? undefined}
              input={{
                ref: inputRef,
                type: 'email',
                name: 'newEmail',
                autoComplete: 'email',
                inputMode: 'email',
                autoCapitalize: 'none',
                spellCheck: false,
                value: newEmail,
                readOnly: pending,
                onChange: (event) => {
                  setNewEmail(event.target.value);
                  setFieldError(null);
                },
              }}
            />
            <BusyButton id={SUBMIT_ID} busy={pending} busyText="Sending the link…">
              Send confirmation link
            </BusyButton>
          </form>
          {stepUp && (
            <StepUpDialog
              message={stepUp}
              confirmLabel="Confirm and send link"
              factorMessage="One more step before we send the link."
              onConfirmed={() => {
                setStepUp(null);
                // The same address again, now with the new sign-in.
                void send();
              }}
              onCancel={() => setStepUp(null)}
              returnFocusId={SUBMIT_ID}
            />
          )}
        </>
      )}
    </section>
  );
}
