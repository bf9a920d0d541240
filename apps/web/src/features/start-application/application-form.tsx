import {
  StartApplicationSchema,
  type StartApplication,
  type StartApplicationInput,
} from '@customer-core/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { BusyButton } from '../../components/busy-button';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../components/banner';
import { EmailField } from '../../components/email-field';
import { MessageWithPhone } from '../../components/message-with-phone';
import { ReadOnlyField } from '../../components/read-only-field';
import { TextField } from '../../components/text-field';
import { AmountField, parseDollars } from './amount-field';
import { PurposeField } from './purpose-field';

// The one schema the API validates the application with.
const resolver = zodResolver(StartApplicationSchema);

interface ApplicationFormProps {
  /** What was sent before ("Start again" keeps it, to correct an address). */
  defaultValues: Partial<StartApplicationInput> | undefined;
  /** A signed-in borrower: their name and address are the account's, shown, not asked for. */
  account?: { name: string; email: string } | undefined;
  /** Sends the application; a refusal's words show above the form. */
  send: (values: StartApplication) => Promise<{ kind: 'failed'; message: string } | { kind: 'sent' }>;
}

export function ApplicationForm({ defaultValues, account, send }: ApplicationFormProps) {
  const { t } = useLingui();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<StartApplicationInput, unknown, StartApplication>({
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: {
      businessName: '',
      contactName: account?.name ?? '',
      email: account?.email ?? '',
      ...defaultValues,
    },
  });
  const [failure, setFailure] = useState<string | null>(null);
  // The banner is above a long form: brought into view (on a phone the button is far below it).
  const bannerRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (failure) bannerRef.current?.scrollIntoView({ block: 'nearest' });
  }, [failure]);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const outcome = await send(values);
    if (outcome.kind === 'failed') setFailure(outcome.message);
  });

  return (
    <form className="form-screen__form" onSubmit={onSubmit} noValidate>
      {failure && (
        <div ref={bannerRef}>
          <Banner type="error" onDismiss={() => setFailure(null)} testId="start-application-error-banner">
            <MessageWithPhone message={failure} />
          </Banner>
        </div>
      )}
      <TextField
        id="start-application-business-name"
        label={t`Business name`}
        input={{ ...register('businessName'), autoComplete: 'organization' }}
        error={errors.businessName?.message}
      />
      {account ? (
        <>
          <ReadOnlyField
            id="start-application-contact-name"
            label={t`Your name`}
            value={account.name}
            hint={t`From your account.`}
          />
          <ReadOnlyField
            id="start-application-email"
            label={t`Email`}
            value={account.email}
            hint={t`We’ll contact you at your sign-in address.`}
          />
        </>
      ) : (
        <>
          <TextField
            id="start-application-contact-name"
            label={t`Your name`}
            input={{ ...register('contactName'), autoComplete: 'name' }}
            error={errors.contactName?.message}
          />
          <EmailField id="start-application-email" input={register('email')} error={errors.email?.message} />
        </>
      )}
      <AmountField
        id="start-application-amount"
        input={register('amountRequested', { setValueAs: parseDollars })}
        error={errors.amountRequested?.message}
      />
      <PurposeField
        id="start-application-purpose"
        input={register('purpose')}
        error={errors.purpose?.message}
      />
      <BusyButton busy={isSubmitting} busyText={t`Sending your application`}>
        <Trans>Send application</Trans>
      </BusyButton>
    </form>
  );
}
