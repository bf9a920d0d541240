import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { BackToSignIn } from '../../components/back-to-sign-in';
import { EmailRequestForm } from '../../components/email-request-form';
import { FormScreen } from '../../components/form-screen';
import { LinkSentConfirmation } from '../../components/link-sent-confirmation';
import { sendMagicLinkEmail } from './send-magic-link-email';

/** Spec section 2, magic-link login ("Email Only Sign In"): a sign-in link by e-mail, no password. */
export function MagicLinkScreen() {
  const { t } = useLingui();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);

  if (confirmed) {
    return (
      <LinkSentConfirmation
        validFor={t`10 minutes`}
        onSendAnother={() => setConfirmed(false)}
        testId="magic-link-sent"
      />
    );
  }
  return (
    <FormScreen
      title={t`Sign in with an email link`}
      intro={t`Enter the email address you sign in with. We’ll send you a link that signs you in, no password needed.`}
      testId="magic-link"
    >
      <EmailRequestForm
        fieldId="magic-link-email"
        submitLabel={t`Send sign-in link`}
        pendingText={t`Sending the sign-in link`}
        failureMessage={t`We couldn’t send the sign-in link just now. Please try again in a few minutes.`}
        defaultEmail={sentTo ?? ''}
        send={sendMagicLinkEmail}
        onSent={(email) => {
          setSentTo(email);
          setConfirmed(true);
        }}
      />
      <BackToSignIn />
    </FormScreen>
  );
}
