import {
  SECOND_FACTOR_LABELS,
  type AuthenticatorAppEnrolment,
  type EmailCodeEnrolment,
  type SecondFactor,
} from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { AddEmailCodesForm } from './email-codes-form';
import { startEmailCodes } from './email-codes-api';
import { useEffect, useRef, useState } from 'react';
import { BusyButton } from '../../components/busy-button';
import { FormActions } from '../../components/form-actions';
import { AuthenticatorSetup } from '../../components/factors/authenticator-setup';
import { CodeField } from '../../components/factors/code-field';
import { CODE_REQUIRED } from '../../components/factors/factor-errors';
import { useLoad } from '../../lib/use-load';
import { getSecondFactors, removeSecondFactor, startAuthenticatorApp } from './second-factors-api';
import { FactorSummary } from './factor-summary';
import { useFirstCode } from './use-first-code';
import { CurrentPasswordField, usePasswordConfirmation } from './current-password-field';
import { SectionLoading, SectionNotice, type SectionNoticeText } from './section-parts';
import { useAddingStepUp } from './adding-step-up';
import { AccountRow, type RowControls } from './account-row';
import { secondStepText, waysSummary } from './factor-words';
import { inPortalLanguage } from '../../i18n/in-portal-language';
type Notice = SectionNoticeText;

const CODE_ID = 'second-factor-code';
const PASSWORD_ID = 'second-factor-password';
const ADD_APP_ID = 'second-factor-add-app';
const START_APP_ID = 'second-factor-start-app';
const START_EMAIL_ID = 'second-factor-start-email';

/** Adding an app: its QR code and key, then its first code. */
function AddAppForm({
  enrolment,
  onAdded,
  onCancel,
  onStartAgain,
  onFailed,
}: {
  enrolment: AuthenticatorAppEnrolment;
  onAdded(): void;
  onCancel(): void;
  onStartAgain(message: string): void;
  onFailed(message: string): void;
}) {
  const { t } = useLingui();
  const { code, setCode, error, pending, heading, submit, stepUpDialog } = useFirstCode({
    factorId: enrolment.factorId,
    codeRequired: CODE_REQUIRED,
    onAdded,
    onStartAgain,
    onFailed,
  });

  return (
    <>
      <form className="factor-step account-factors__add" onSubmit={(e) => void submit(e)} noValidate>
        <h3 ref={heading} tabIndex={-1}>
          <Trans>Scan this code with your authenticator app</Trans>
        </h3>
        <AuthenticatorSetup secret={enrolment.sharedSecret} accountName={enrolment.accountName} />
        <p className="factor-step__intro">
          <Trans>Then enter the 6‑digit code your app shows.</Trans>
        </p>
        <CodeField id={CODE_ID} value={code} onChange={setCode} error={error} disabled={pending} />
        <FormActions id={ADD_APP_ID} busy={pending} busyText={t`Adding the app`} onCancel={onCancel}>
          <Trans>Add app</Trans>
        </FormActions>
      </form>
      {stepUpDialog(ADD_APP_ID)}
    </>
  );
}

/** What the remove form says, by what it removes: email codes, an app or a passkey. */
const REMOVE_WORDS = {
  email: {
    intro: msg`To remove email codes, enter your current password.`,
    busy: msg`Removing email codes`,
    button: msg`Remove email codes`,
  },
  app: {
    intro: msg`To remove this app, enter your current password.`,
    busy: msg`Removing the app`,
    button: msg`Remove app`,
  },
  passkey: {
    intro: msg`To remove this passkey, enter your current password.`,
    busy: msg`Removing the passkey`,
    button: msg`Remove passkey`,
  },
};

/** Removing a factor: the current password, asked in place. */
export function RemoveForm({
  factor,
  headingId,
  noun = 'app',
  onRemoved,
  onCancel,
  onFailed,
}: {
  factor: SecondFactor;
  headingId: string;
  /** What the words call it: `app` or `passkey`. */
  noun?: 'app' | 'passkey';
  onRemoved(): void;
  onCancel(): void;
  onFailed(message: string): void;
}) {
  const { i18n } = useLingui();
  const words = REMOVE_WORDS[factor.type === 'email_code' ? 'email' : noun];
  const { password, onChange, error, pending, input, submit } = usePasswordConfirmation(async (entered) => {
    const outcome = await removeSecondFactor(factor.id, entered);
    if (outcome.kind !== 'removed') return outcome;
    onRemoved();
  }, onFailed);

  return (
    <form
      className="account-factors__remove"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-describedby={headingId}
    >
      <p>{i18n._(words.intro)}</p>
      <CurrentPasswordField ref={input} id={PASSWORD_ID} value={password} error={error} onChange={onChange} />
      <FormActions
        busy={pending}
        busyText={i18n._(words.busy)}
        testId="factor-remove-confirm"
        onCancel={onCancel}
      >
        {i18n._(words.button)}
      </FormActions>
    </form>
  );
}

/**
 * Two-step verification: a row naming the borrower's authenticator app and email codes; open, adding
 * one (its first code confirms it) and removing one (the current password, asked in place). A change
 * made closes the row and says so under it. Not shown where the portal offers none.
 */
export function SecondFactorsSection({ onChanged }: { onChanged?: () => void }) {
  const { t, i18n } = useLingui();
  const { state, retry, reload: loadAgain } = useLoad(getSecondFactors, []);
  const [adding, setAdding] = useState<AuthenticatorAppEnrolment | null>(null);
  const [addingEmail, setAddingEmail] = useState<EmailCodeEnrolment | null>(null);
  const [starting, setStarting] = useState(false);
  const [startingEmail, setStartingEmail] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const stepUp = useAddingStepUp();
  const row = useRef<RowControls>(null);
  // The start button to focus again once the step-up dialog closes.
  const [stepUpFrom, setStepUpFrom] = useState(START_APP_ID);
  // A form cancelled hands the focus back to the button that opened it.
  const sectionRef = useRef<HTMLDivElement>(null);
  const returnFocusTo = useRef<string | null>(null);
  useEffect(() => {
    if (!returnFocusTo.current) return;
    const opener = sectionRef.current?.querySelector<HTMLElement>(`[data-opens="${returnFocusTo.current}"]`);
    // Kept until the button is on the page: a render in between (the factors reloading) must not lose it.
    if (!opener) return;
    opener.focus();
    returnFocusTo.current = null;
  });

  if (state.kind === 'off') return null;

  const resetForms = () => {
    setAdding(null);
    setAddingEmail(null);
    setRemoving(null);
  };
  // An app added or removed: listed again here, and in the security activity; the row closes.
  const reload = (next: Notice) => {
    onChanged?.();
    row.current?.close();
    resetForms();
    setNotice(next);
    loadAgain();
  };
  const problem = (text: string) => setNotice({ tone: 'problem', text });

  // Too many wrong codes: the enrolment is over; the borrower starts adding it again.
  const startAgain = (text: string) => {
    setAdding(null);
    setAddingEmail(null);
    problem(text);
  };

  const askStepUp = (from: string, message: string, retry: () => Promise<void>) => {
    setStepUpFrom(from);
    stepUp.ask(message, () => void retry());
  };

  const start = async () => {
    setStarting(true);
    setNotice(null);
    const outcome = await startAuthenticatorApp();
    setStarting(false);
    if (outcome.ok) setAdding(outcome.enrolment);
    else if (outcome.stepUp) askStepUp(START_APP_ID, outcome.message, start);
    else problem(outcome.message);
  };

  const startEmail = async () => {
    setStartingEmail(true);
    setNotice(null);
    const outcome = await startEmailCodes();
    setStartingEmail(false);
    if (outcome.ok) setAddingEmail(outcome.enrolment);
    else if (outcome.stepUp) askStepUp(START_EMAIL_ID, outcome.message, startEmail);
    else problem(outcome.message);
  };

  // Passkeys have their own section (passkeys-section.tsx); the last factor may be any kind.
  const all = state.kind === 'loaded' ? state.factors : [];
  const factors = all.filter((factor) => factor.type !== 'passkey');
  const hasApp = factors.some((factor) => factor.type === 'authenticator_app');
  const hasEmail = factors.some((factor) => factor.type === 'email_code');
  const lastRequired = state.kind === 'loaded' && state.policy === 'required' && all.length === 1;
  const steps = secondStepText(all, i18n);

  const list = (
    <ul className="account-sessions__list">
      {factors.map((factor) => {
        const headingId = `factor-${factor.id}`;
        return (
          <li
            key={factor.id}
            className="account-factors__item"
            data-testid="factor-row"
            aria-labelledby={headingId}
          >
            <FactorSummary
              factor={factor}
              name={inPortalLanguage(SECOND_FACTOR_LABELS[factor.type])}
              headingId={headingId}
              removable={removing !== factor.id && !lastRequired}
              onRemove={() => (setNotice(null), setRemoving(factor.id))}
              removeTestId="factor-remove"
              opens={`remove-${factor.id}`}
            />
            {lastRequired && (
              <p className="account-factors__hint">
                <Trans>You need a second sign-in step, so you can’t remove your only one.</Trans>
              </p>
            )}
            {removing === factor.id && (
              <RemoveForm
                factor={factor}
                headingId={headingId}
                onRemoved={() =>
                  reload({
                    tone: 'done',
                    text:
                      factor.type === 'email_code'
                        ? t`Email codes are turned off.`
                        : t`Your authenticator app is removed.`,
                  })
                }
                onCancel={() => ((returnFocusTo.current = `remove-${factor.id}`), setRemoving(null))}
                onFailed={problem}
              />
            )}
          </li>
        );
      })}
    </ul>
  );

  const adds = adding ? (
    <AddAppForm
      enrolment={adding}
      onAdded={() => reload({ tone: 'done', text: t`Your authenticator app is added.` })}
      onCancel={() => ((returnFocusTo.current = 'add'), setAdding(null))}
      onStartAgain={startAgain}
      onFailed={problem}
    />
  ) : addingEmail ? (
    <AddEmailCodesForm
      enrolment={addingEmail}
      onAdded={() => reload({ tone: 'done', text: t`Email codes are turned on.` })}
      onCancel={() => ((returnFocusTo.current = 'add-email'), setAddingEmail(null))}
      onStartAgain={startAgain}
      onFailed={problem}
    />
  ) : (
    (!hasApp || !hasEmail) && (
      <div className="form-actions">
        {!hasApp && (
          <BusyButton
            id={START_APP_ID}
            type="button"
            busy={starting}
            busyText={t`Setting up an authenticator app`}
            className="button button--primary"
            onClick={() => void start()}
            disabled={startingEmail}
            data-testid="factor-add"
            data-opens="add"
          >
            <Trans>Add an authenticator app</Trans>
          </BusyButton>
        )}
        {!hasEmail && (
          <BusyButton
            id={START_EMAIL_ID}
            type="button"
            busy={startingEmail}
            busyText={t`Sending you a code`}
            className={hasApp ? 'button button--primary' : 'button button--secondary'}
            onClick={() => void startEmail()}
            disabled={starting}
            data-testid="factor-add-email"
            data-opens="add-email"
          >
            <Trans>Add email codes</Trans>
          </BusyButton>
        )}
      </div>
    )
  );

  return (
    <AccountRow
      ref={row}
      row="factors"
      title={t`Two-step verification`}
      testId="account-factors"
      summary={state.kind === 'loaded' ? waysSummary(factors, i18n) : ''}
      summaryTestId="account-factors-summary"
      action={state.kind === 'loaded' ? (factors.length > 0 ? t`Manage` : t`Set up`) : null}
      actionTestId="account-factors-open"
      onOpen={() => (setNotice(null), resetForms())}
      notices={
        <>
          <SectionNotice
            notice={notice}
            testId="account-factors-notice"
            takeFocus={notice?.tone === 'problem'}
          />
          <SectionLoading state={state} retry={retry} />
        </>
      }
    >
      {() => (
        <div ref={sectionRef} className="account-row__form account-row__form--wide">
          <p className="account-row__intro" data-testid="account-factors-intro">
            <Trans>{steps} We’ll email you whenever a sign-in step is added or removed.</Trans>
          </p>
          {factors.length > 0 && list}
          {adds}
          {stepUp.dialog(stepUpFrom)}
        </div>
      )}
    </AccountRow>
  );
}
