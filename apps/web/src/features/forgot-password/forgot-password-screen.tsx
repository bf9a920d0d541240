import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { BackToSignIn } from '../../components/back-to-sign-in';
import { EmailRequestForm } from '../../components/email-request-form';
import { FormScreen } from '../../components/form-screen';
import { LinkSentConfirmation } from '../../components/link-sent-confirmation';
import { requestPasswordReset } from './request-password-reset';

/** Spec section 2, forgot password: an e-mail address in, a reset link out (if it has an account). */
export function ForgotPasswordScreen() {
  // The address last sent to, kept for "Send another link"; never shown (the answer is the same for all).
  const { t } = useLingui();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);

  if (confirmed) {
    return (
      <LinkSentConfirmation
        validFor={t`30 minutes`}
        onSendAnother={() => setConfirmed(false)}
        testId="forgot-password-sent"
      />
    );
  }
  return (
    <FormScreen
      title={t`Reset your password`}
      intro={t`Enter the email address you sign in with. We’ll send you a link to choose a new password.`}
      testId="forgot-password"
    >
      <EmailRequestForm
        fieldId="forgot-password-email"
        submitLabel={t`Send reset link`}
        pendingText={t`Sending the reset link`}
        failureMessage={t`We couldn’t send the reset link just now. Please try again in a few minutes.`}
        defaultEmail={sentTo ?? ''}
        send={requestPasswordReset}
        onSent={(email) => {
          setSentTo(email);
          setConfirmed(true);
        }}
      />
      <BackToSignIn />
    </FormScreen>
  );
}
