import {
  MAX_PASSKEY_NAME_LENGTH,
  PasskeyNameSchema,
  type ActivatePasskeyRequest,
  type SecondFactor,
} from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormActions } from '../../components/form-actions';
import { SupportPhone } from '../../components/support-phone';
import { TextField } from '../../components/text-field';
import { useLoad } from '../../lib/use-load';
import { deviceName } from './device-name';
import { useDeviceWords } from './use-device-words';
import { useAddingStepUp } from './adding-step-up';
import { addPasskey, startPasskey } from './passkeys-api';
import { getSecondFactors } from './second-factors-api';
import { FactorSummary } from './factor-summary';
import { RemoveForm } from './second-factors-section';
import { SectionLoading, SectionNotice, type SectionNoticeText } from './section-parts';
import { AccountRow, type RowControls } from './account-row';
import { listed } from './factor-words';

const NAME_ID = 'passkey-name';
const CREATE_ID = 'passkey-create';
const NOT_MADE = msg`We didn’t get a passkey from your device. Try again when you’re ready.`;
const ALREADY_ON_DEVICE = msg`This device already has a passkey for your account.`;

/** The browser's own failures of navigator.credentials.create, in the borrower's words. */
function creationProblem(error: unknown) {
  const name = (error as { name?: unknown } | null)?.name;
  const code = (error as { code?: unknown } | null)?.code;
  if (name === 'InvalidStateError' || code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return ALREADY_ON_DEVICE;
  return NOT_MADE;
}

/** Naming the passkey, then the browser's prompt: the device makes it, the identity provider keeps it. */
function AddPasskeyForm({ onAdded, onCancel }: { onAdded(): void; onCancel(): void }) {
  const { t, i18n } = useLingui();
  // The device's name in the borrower's language ("Chrome on Windows"), theirs to change.
  const words = useDeviceWords();
  const [name, setName] = useState(() => deviceName(navigator.userAgent, words));
  const [error, setError] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [pending, setPending] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const stepUp = useAddingStepUp();
  useEffect(() => heading.current?.focus(), []);

  // The browser's new credential adds the passkey; a sign-in too old asks for the step-up first,
  // then sends the same credential again.
  const add = async (factorId: string, request: ActivatePasskeyRequest) => {
    setPending(true);
    const outcome = await addPasskey(factorId, request);
    setPending(false);
    if (outcome.kind === 'added') return onAdded();
    if (outcome.kind === 'step-up') return stepUp.ask(outcome.message, () => void add(factorId, request));
    setProblem(outcome.message);
  };

  const create = async (passkeyName: string) => {
    setProblem(undefined);
    setPending(true);
    const started = await startPasskey();
    if (!started.ok) {
      setPending(false);
      if (started.stepUp) return stepUp.ask(started.message, () => void create(passkeyName));
      return setProblem(started.message);
    }
    let credential;
    try {
      const { startRegistration } = await import('@simplewebauthn/browser');
      credential = await startRegistration({ optionsJSON: started.enrolment.options as never });
    } catch (failure) {
      setPending(false);
      return setProblem(i18n._(creationProblem(failure)));
    }
    await add(started.enrolment.factorId, {
      name: passkeyName,
      attestation: credential.response.attestationObject,
      clientData: credential.response.clientDataJSON,
      ...(credential.response.transports ? { transports: credential.response.transports } : {}),
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = PasskeyNameSchema.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    await create(parsed.data);
  };

  return (
    <>
      <form className="factor-step account-factors__add" onSubmit={(e) => void submit(e)} noValidate>
        <h3 ref={heading} tabIndex={-1}>
          <Trans>Add a passkey</Trans>
        </h3>
        <p className="factor-step__intro">
          <Trans>
            Name it so you can tell it apart, then follow your device’s prompt to make the passkey.
          </Trans>
        </p>
        {problem && (
          <p className="form-field__error" role="alert" data-testid="passkey-add-problem">
            {problem}
          </p>
        )}
        <TextField
          id={NAME_ID}
          label={t`Passkey name`}
          error={error}
          input={{
            value: name,
            maxLength: MAX_PASSKEY_NAME_LENGTH,
            autoComplete: 'off',
            onChange: (event) => (setName(event.target.value), setError(undefined)),
          }}
        />
        <FormActions
          id={CREATE_ID}
          busy={pending}
          busyText={t`Waiting for your device…`}
          testId="passkey-create"
          onCancel={onCancel}
        >
          <Trans>Create passkey</Trans>
        </FormActions>
      </form>
      {stepUp.dialog(CREATE_ID)}
    </>
  );
}

/**
 * Passkeys: a row naming the borrower's passkeys; open, each one (name, added, last used) with Remove
 * (the current password), and adding one with this device. A change made closes the row and says so
 * under it. With a hosted org the lender adds them: the row says so.
 */
export function PasskeysSection({ onChanged }: { onChanged?: () => void }) {
  const { t, i18n } = useLingui();
  const { state, retry, reload: loadAgain } = useLoad(getSecondFactors, []);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<string | null>(null);
  const [notice, setNotice] = useState<SectionNoticeText | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const row = useRef<RowControls>(null);
  // A Remove form cancelled hands the focus back to the Remove button that opened it (back once the
  // form has gone).
  const list = useRef<HTMLDivElement>(null);
  const returnFocusTo = useRef<string | null>(null);
  useEffect(() => {
    if (!returnFocusTo.current) return;
    list.current?.querySelector<HTMLElement>(`[data-opens="${returnFocusTo.current}"]`)?.focus();
    returnFocusTo.current = null;
  });

  if (state.kind === 'off') return null;

  const reload = (next: SectionNoticeText) => {
    onChanged?.();
    row.current?.close();
    setAdding(false);
    setRemoving(null);
    setNotice(next);
    loadAgain();
  };
  const loaded = state.kind === 'loaded' ? state : null;
  const passkeys: SecondFactor[] = loaded?.factors.filter((factor) => factor.type === 'passkey') ?? [];
  const lastRequired = loaded?.policy === 'required' && loaded.factors.length === 1;
  const addedHere = loaded?.passkeysAddedHere === true && typeof window.PublicKeyCredential === 'function';
  const names = passkeys.map((factor) => factor.name ?? t`Passkey`);
  // "Ninguna" in Spanish: said of passkeys (llaves), not of codes.
  const summary = names.length > 0 ? listed(names, i18n) : t({ message: 'None yet', context: 'passkeys' });
  const canOpen = passkeys.length > 0 || addedHere;

  return (
    <AccountRow
      ref={row}
      row="passkeys"
      title={t`Passkeys`}
      testId="account-passkeys"
      summary={loaded ? summary : ''}
      summaryTestId="account-passkeys-summary"
      action={loaded && canOpen ? (passkeys.length > 0 ? t`Manage` : t`Set up`) : null}
      actionTestId="account-passkeys-open"
      onOpen={() => (setNotice(null), setAdding(false), setRemoving(null))}
      notices={
        <>
          {!addedHere && loaded?.passkeysAddedHere === false && (
            <p className="account-factors__hint" data-testid="passkeys-with-lender">
              <Trans>
                Passkeys for your account are added with us. Call us at <SupportPhone /> to add one.
              </Trans>
            </p>
          )}
          <SectionNotice
            notice={notice}
            testId="account-passkeys-notice"
            takeFocus={notice?.tone === 'problem'}
          />
          <SectionLoading state={state} retry={retry} />
        </>
      }
    >
      {() => (
        <div ref={list} className="account-row__form account-row__form--wide">
          <p className="account-row__intro">
            {loaded?.passkeysAddedHere === false ? (
              <Trans>
                A passkey signs you in with your fingerprint, face or screen lock. It stands in for a code
                from an app. We’ll email you whenever a passkey is added or removed.
              </Trans>
            ) : (
              <Trans>
                A passkey signs you in with your fingerprint, face or screen lock. It stands in for a code
                from an app, or for your password. We’ll email you whenever a passkey is added or removed.
              </Trans>
            )}
          </p>
          {passkeys.length > 0 && (
            <ul className="account-sessions__list">
              {passkeys.map((factor) => {
                const headingId = `passkey-${factor.id}`;
                return (
                  <li
                    key={factor.id}
                    className="account-factors__item"
                    data-testid="passkey-row"
                    aria-labelledby={headingId}
                  >
                    <FactorSummary
                      factor={factor}
                      name={factor.name ?? t`Passkey`}
                      headingId={headingId}
                      removable={removing !== factor.id && !lastRequired}
                      onRemove={() => (setNotice(null), setRemoving(factor.id))}
                      removeTestId="passkey-remove"
                      opens={`remove-${factor.id}`}
                    />
                    {removing === factor.id && (
                      <RemoveForm
                        factor={factor}
                        headingId={headingId}
                        noun="passkey"
                        onRemoved={() => reload({ tone: 'done', text: t`Your passkey is removed.` })}
                        onCancel={() => ((returnFocusTo.current = `remove-${factor.id}`), setRemoving(null))}
                        onFailed={(text) => setNotice({ tone: 'problem', text })}
                      />
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          {adding ? (
            <AddPasskeyForm
              onAdded={() => reload({ tone: 'done', text: t`Your passkey is added.` })}
              onCancel={() => (setAdding(false), requestAnimationFrame(() => addButton.current?.focus()))}
            />
          ) : (
            addedHere && (
              <div className="form-actions">
                <button
                  ref={addButton}
                  type="button"
                  className="button button--primary"
                  onClick={() => (setNotice(null), setAdding(true))}
                  data-testid="passkey-add"
                >
                  <Trans>Add a passkey</Trans>
                </button>
              </div>
            )
          )}
        </div>
      )}
    </AccountRow>
  );
}
