import { EmailSchema } from '@customer-core/contracts';
import { BusyButton } from './busy-button';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { ApiResult } from '../lib/api-client';
import { describeFailure } from '../lib/api-failure';
import { Banner } from './banner';
import { EmailField } from './email-field';

// The sign-in form's e-mail rules and messages (spec section 5).
const EmailRequestSchema = z.object({ email: EmailSchema });
type EmailRequestInput = z.input<typeof EmailRequestSchema>;
type EmailRequest = z.output<typeof EmailRequestSchema>;
const resolver = zodResolver(EmailRequestSchema);

interface EmailRequestFormProps {
  fieldId: string;
  submitLabel: string;
  /** Announced while the request is on its way. */
  pendingText: string;
  /** The banner's sentence when the call fails for a reason the borrower cannot fix. */
  failureMessage: string;
  defaultEmail?: string;
  send: (email: string) => Promise<ApiResult>;
  onSent: (email: string) => void;
}

/** Asks for the borrower's e-mail address and sends it off (a reset link, a sign-in link). */
export function EmailRequestForm({
  fieldId,
  submitLabel,
  pendingText,
  failureMessage,
  defaultEmail = '',
  send,
  onSent,
}: EmailRequestFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<EmailRequestInput, unknown, EmailRequest>({
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { email: defaultEmail },
  });
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = handleSubmit(async ({ email }) => {
    setFailure(null);
    const result = await send(email);
    if (result.isError) setFailure(describeFailure(result, failureMessage).message);
    else onSent(email);
  });

  return (
    <form className="form-screen__form" onSubmit={onSubmit} noValidate>
      {failure && (
        <Banner type="error" onDismiss={() => setFailure(null)} testId="request-error-banner">
          {failure}
        </Banner>
      )}
      <EmailField id={fieldId} input={register('email')} error={errors.email?.message} />
      <BusyButton busy={isSubmitting} busyText={pendingText}>
        {submitLabel}
      </BusyButton>
    </form>
  );
}
