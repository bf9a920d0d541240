import {
  GiveEsignConsentRequestSchema,
  SIGNING_ERROR_CODES,
  SignDocumentsRequestSchema,
  SignatureNameSchema,
  accountNameOf,
  signatureNameMatches,
  signatureNameMismatchMessage,
  type EsignConsent,
  type LoanDocument,
  type SignDocumentsRequest,
} from '@customer-core/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { useForm, type Resolver, type UseFormRegisterReturn } from 'react-hook-form';
import { z } from 'zod';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { FieldError, FormField, fieldErrorId } from '../../components/form-field';
import { StepUpDialog } from '../../components/step-up/step-up-dialog';
import { readStoredProfile } from '../../lib/product-session-data';
import { EsignConsentText } from './esign-consent';
import type { ActionResult, ConsentResult } from './use-loan-checkout';

export const SIGN_ALL_TITLE_ID = 'sign-all-title';
const SIGNATURE_NAME_ID = 'checkout-signature-name';
const CONSENT_ID = 'checkout-esign-consent';
const AGREE_ID = 'checkout-agree';
const SIGN_ALL_ID = 'checkout-sign-all';

type SignAllForm = { signatureName: string; consented: boolean; agreed: boolean };

type AccountName = { firstName: string | null; lastName: string | null };

interface Rules {
  account: AccountName;
  accountName: string | null;
  needsConsent: boolean;
}

/**
 * The API's rules and messages: the name checked as the API does when the account's name is known,
 * the consent while it is not given (the form's context, read at each check: it may be given meanwhile).
 */
const schemaFor = ({ account, accountName, needsConsent }: Rules) =>
  // Each field's rule is checked whatever the others say, so every message shows at once.
  z
    .object({ signatureName: z.string(), consented: z.boolean(), agreed: z.boolean() })
    .superRefine((form, context) => {
      const issue = (path: keyof SignAllForm, result: z.ZodSafeParseResult<unknown>) => {
        if (!result.success)
          context.addIssue({ code: 'custom', path: [path], message: result.error.issues[0]!.message });
        return result.success;
      };
      if (issue('signatureName', SignatureNameSchema.safeParse(form.signatureName)) && accountName)
        if (!signatureNameMatches(form.signatureName, account))
          context.addIssue({
            code: 'custom',
            path: ['signatureName'],
            message: signatureNameMismatchMessage(accountName),
          });
      if (needsConsent)
        issue('consented', GiveEsignConsentRequestSchema.shape.agreed.safeParse(form.consented));
      issue('agreed', SignDocumentsRequestSchema.shape.agreed.safeParse(form.agreed));
    });

const resolver: Resolver<SignAllForm, Rules> = (values, rules, options) =>
  zodResolver(schemaFor(rules!))(values, rules, options);

interface SignAllFormProps {
  /** The documents signed by "Sign all": every one that needs a signature and is not signed. */
  documents: LoanDocument[];
  consent: EsignConsent;
  giveConsent: (version: string) => Promise<ConsentResult>;
  signAll: (signature: SignDocumentsRequest) => Promise<ActionResult>;
}

/**
 * Signing, once for the whole checkout: the consent to sign electronically (given once per borrower),
 * a summary of what is signed, the signature adopted (the account's name, typed once) and "Sign all".
 */
export function SignAllForm({ documents, consent, giveConsent, signAll }: SignAllFormProps) {
  const { t } = useLingui();
  const [account] = useState<AccountName>(() => {
    const profile = readStoredProfile();
    return { firstName: profile?.firstName ?? null, lastName: profile?.lastName ?? null };
  });
  const accountName = accountNameOf(account);
  const needsConsent = consent.givenAt === null;
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<SignAllForm, Rules>({
    resolver,
    context: { account, accountName, needsConsent },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { signatureName: '', consented: false, agreed: false },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [stepUp, setStepUp] = useState<string | null>(null);

  const sign = async ({ signatureName }: Pick<SignAllForm, 'signatureName'>) => {
    setFailure(null);
    if (consent.givenAt === null) {
      const given = await giveConsent(consent.version);
      if (!given.ok) return setFailure(given.message);
    }
    const result = await signAll({
      signatureName: signatureName.trim(),
      documentIds: documents.map((d) => d.id),
      agreed: true,
    });
    if (result.ok) return;
    if (result.stepUp) return setStepUp(result.message);
    if (result.code === SIGNING_ERROR_CODES.nameMismatch)
      return setError('signatureName', { message: result.message }, { shouldFocus: true });
    setFailure(result.message);
  };

  const nameError = errors.signatureName?.message;
  const consentError = errors.consented?.message;
  const agreeError = errors.agreed?.message;
  const count = documents.length;
  return (
    <form
      className="sign-form"
      onSubmit={handleSubmit(sign)}
      noValidate
      aria-labelledby={SIGN_ALL_TITLE_ID}
      data-testid="sign-all-form"
    >
      {/* Focused once every document is read: the form is then read from its top, the consent first. */}
      <h2 id={SIGN_ALL_TITLE_ID} tabIndex={-1}>
        <Trans>Sign your documents</Trans>
      </h2>
      <EsignConsentText consent={consent} />
      {needsConsent && (
        <Checkbox id={CONSENT_ID} error={consentError} input={register('consented')}>
          <Trans>I agree to sign electronically</Trans>
        </Checkbox>
      )}

      <section className="sign-form__summary" aria-labelledby="sign-summary-title" data-testid="sign-summary">
        <h3 id="sign-summary-title">
          <Trans>
            You’re signing <Plural value={count} one="# document" other="# documents" />
          </Trans>
        </h3>
        <ul>
          {documents.map((document) => (
            <li key={document.id}>{document.title}</li>
          ))}
        </ul>
      </section>

      <FormField id={SIGNATURE_NAME_ID} label={t`Your full name`} error={nameError}>
        <input
          {...register('signatureName')}
          id={SIGNATURE_NAME_ID}
          className="text-input"
          type="text"
          autoComplete="name"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={[nameError && fieldErrorId(SIGNATURE_NAME_ID), `${SIGNATURE_NAME_ID}-hint`]
            .filter(Boolean)
            .join(' ')}
        />
        <p className="sign-form__hint" id={`${SIGNATURE_NAME_ID}-hint`}>
          {accountName ? (
            <Trans>
              Type your name as it is on your account ({accountName}). It becomes your signature on each
              document.
            </Trans>
          ) : (
            <Trans>
              Type your name as it is on your account. It becomes your signature on each document.
            </Trans>
          )}
        </p>
      </FormField>

      <Checkbox id={AGREE_ID} error={agreeError} input={register('agreed')}>
        <Trans>I have read and agree to these documents</Trans>
      </Checkbox>

      {failure && (
        <Banner type="error" onDismiss={() => setFailure(null)} testId="sign-error">
          {failure}
        </Banner>
      )}
      <BusyButton
        busy={isSubmitting}
        busyText={t`Signing your documents`}
        id={SIGN_ALL_ID}
        className="button button--primary"
      >
        <Trans>Sign all</Trans>
      </BusyButton>

      {stepUp && (
        <StepUpDialog
          message={stepUp}
          confirmLabel={t`Confirm and sign`}
          factorMessage={t`One more step before you sign.`}
          onConfirmed={() => {
            setStepUp(null);
            // The same signature again, now with the new sign-in.
            void sign(getValues());
          }}
          onCancel={() => setStepUp(null)}
          returnFocusId={SIGN_ALL_ID}
        />
      )}
    </form>
  );
}

function Checkbox({
  id,
  error,
  input,
  children,
}: {
  id: string;
  error: string | undefined;
  input: UseFormRegisterReturn;
  children: ReactNode;
}) {
  return (
    <div className="checkbox-field-group">
      <div className={`checkbox-field${error ? ' checkbox-field--invalid' : ''}`}>
        <input
          {...input}
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? fieldErrorId(id) : undefined}
        />
        <label htmlFor={id}>{children}</label>
      </div>
      {error && <FieldError id={id} message={error} />}
    </div>
  );
}
