import { ChangeEmailRequestSchema } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type FormEvent } from 'react';
import { Banner } from '../../components/banner';
import { FormActions } from '../../components/form-actions';
import { StepUpDialog } from '../../components/step-up/step-up-dialog';
import { SupportPhone } from '../../components/support-phone';
import { TextField } from '../../components/text-field';
import { getLenderBranding } from '../../config/portal-config-meta';
import { useLoad } from '../../lib/use-load';
import { changeEmail, getAccountEmail } from './account-api';
import { AccountRow } from './account-row';
import { SectionNotice } from './section-parts';

const NEW_EMAIL_ID = 'change-email-new';
const SUBMIT_ID = 'change-email-submit';

/**
 * The email address row: the address the borrower signs in with. Its form asks for a new one, which
 * gets a link; nothing changes until it is used (the link page). With a hosted Okta org the lender
 * changes it: the row says so and has no form. A sign-in too old for it opens the step-up dialog over
 * the form, which keeps what was typed, and the request is made again.
 */
export function ChangeEmailSection() {
  const { t } = useLingui();
  const { state: account } = useLoad(getAccountEmail, []);
  const [done, setDone] = useState<string | null>(null);
  const loaded = account.kind === 'loaded' ? account : null;
  const lender = getLenderBranding().name;
  return (
    <AccountRow
      row="email"
      title={t`Email address`}
      testId="account-email"
      summary={
        <p className="account-row__value" data-testid="change-email-current">
          {loaded?.email ?? (account.kind === 'loading' ? t`Loading...` : '')}
        </p>
      }
      action={loaded?.changeable ? t`Change` : null}
      actionTestId="account-email-open"
      onOpen={() => setDone(null)}
      notices={
        <>
          {account.kind === 'failed' && (
            <p
              className="account__notice account__notice--problem"
              role="alert"
              data-testid="account-email-load-error"
            >
              {account.message}
            </p>
          )}
          {loaded && !loaded.changeable && (
            <p className="account-email__with-lender" data-testid="account-email-with-lender">
              {/* The address is the row's summary, just above: said once. */}
              <Trans>
                To change it, call {lender} at <SupportPhone />.
              </Trans>
            </p>
          )}
          <SectionNotice
            notice={done ? { tone: 'done', text: done } : null}
            testId="account-email-notice"
            takeFocus={false}
          />
        </>
      }
    >
      {({ close }) =>
        loaded && (
          <ChangeEmailForm
            current={loaded.email}
            onCancel={() => close()}
            onSent={(notice) => {
              setDone(notice);
              close();
            }}
          />
        )
      }
    </AccountRow>
  );
}

function ChangeEmailForm({
  current,
  onSent,
  onCancel,
}: {
  current: string;
  onSent: (notice: string) => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const [newEmail, setNewEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [stepUp, setStepUp] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const send = async () => {
    const parsed = ChangeEmailRequestSchema.safeParse({ newEmail });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? t`Invalid email address.`);
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    const outcome = await changeEmail(parsed.data);
    setPending(false);
    switch (outcome.kind) {
      case 'sent': {
        const address = parsed.data.newEmail;
        onSent(
          t`We’ve sent a link to ${address}. Open it while you’re signed in to finish the change. Until then, you sign in with ${current}.`,
        );
        return;
      }
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
    void send();
  };

  return (
    <>
      {failure && (
        <Banner type="error" onDismiss={() => setFailure(null)} testId="account-email-error">
          {failure}
        </Banner>
      )}
      <form className="account-email__form" onSubmit={submit} noValidate>
        <p className="account-row__intro">
          <Trans>
            You sign in with your email address, and it’s where we write to you. We’ll send a link to the new
            address; until you open it, you keep signing in with this one.
          </Trans>
        </p>
        <TextField
          id={NEW_EMAIL_ID}
          label={t`New email address`}
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
        <FormActions id={SUBMIT_ID} busy={pending} busyText={t`Sending the link…`} onCancel={onCancel}>
          <Trans>Send confirmation link</Trans>
        </FormActions>
      </form>
      {stepUp && (
        <StepUpDialog
          message={stepUp}
          confirmLabel={t`Confirm and send link`}
          factorMessage={t`One more step before we send the link.`}
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
  );
}
