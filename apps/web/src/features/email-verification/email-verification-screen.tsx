import {
  EMAIL_VERIFICATION_LIFETIME_HOURS,
  routes,
  type EmailVerificationResponse,
} from '@customer-core/contracts';
import { useState } from 'react';
import { BusyButton } from '../../components/busy-button';
import { Link, useParams } from 'react-router';
import { Banner } from '../../components/banner';
import { ExistingCustomerSignIn } from '../../components/existing-customer-sign-in';
import { FormScreen } from '../../components/form-screen';
import { INVALID_LINK_MESSAGE } from '../../components/invalid-link';
import { MessageWithPhone } from '../../components/message-with-phone';
import { verifyEmail } from './verify-email';

type Outcome =
  | { kind: 'verified'; verification: EmailVerificationResponse }
  | { kind: 'invalid-link'; message: string | null };

function Verified({
  verification: { email, businessName, alreadyVerified },
}: {
  verification: EmailVerificationResponse;
}) {
  return (
    <FormScreen
      title={alreadyVerified ? 'Your email address is already verified' : 'Your email address is verified'}
      tone="success"
      focusTitle
      testId="email-verification-verified"
      intro={
        <>
          <p data-testid="email-verification-outcome">
            {alreadyVerified ? (
              <>
                We had already confirmed <strong>{email}</strong> for the loan application of{' '}
                <strong>{businessName}</strong>. There&rsquo;s nothing more to do here.
              </>
            ) : (
              <>
                Thank you. We&rsquo;ve confirmed <strong>{email}</strong> for the loan application of{' '}
                <strong>{businessName}</strong>.
              </>
            )}
          </p>
          <p>
            What happens next: one of our lending specialists reviews your application and contacts you at
            this address about the documents we need. You can close this page.
          </p>
        </>
      }
    >
      <ExistingCustomerSignIn />
    </FormScreen>
  );
}

function InvalidVerificationLink({ message }: { message: string | null }) {
  return (
    <FormScreen
      title="This link can’t be used"
      tone="warning"
      focusTitle
      testId="email-verification-invalid-link"
      intro={
        <>
          <p data-testid="email-verification-outcome">
            <MessageWithPhone message={message ?? INVALID_LINK_MESSAGE} />
          </p>
          <p>
            A verification link works for {EMAIL_VERIFICATION_LIFETIME_HOURS} hours. Start a new application
            and we&rsquo;ll send you a new link.
          </p>
        </>
      }
    >
      <div className="form-screen__actions">
        <Link className="button button--primary button--block" to={routes.startApplication.path}>
          Start a new application
        </Link>
      </div>
      <ExistingCustomerSignIn />
    </FormScreen>
  );
}

/**
 * The application's e-mail verification page. Opening it verifies nothing (mail scanners open links
 * too): only the button does, with an explicit POST.
 */
export function EmailVerificationScreen() {
  const { token = '' } = useParams();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const onVerify = async () => {
    setFailure(null);
    setPending(true);
    const result = await verifyEmail(token);
    setPending(false);
    if (result.kind === 'failed') setFailure(result.message);
    else setOutcome(result);
  };

  if (outcome?.kind === 'verified') return <Verified verification={outcome.verification} />;
  if (outcome?.kind === 'invalid-link') return <InvalidVerificationLink message={outcome.message} />;
  return (
    <FormScreen
      title="Verify your email"
      intro={
        <>
          <p>
            You opened the link we sent when you started a loan application. Select the button below to
            confirm that this email address is yours.
          </p>
          <p>Didn&rsquo;t apply? Close this page and nothing will happen.</p>
        </>
      }
      testId="email-verification"
    >
      {failure && (
        <Banner type="error" onDismiss={() => setFailure(null)} testId="email-verification-error-banner">
          {failure}
        </Banner>
      )}
      <BusyButton
        type="button"
        busy={pending}
        busyText="Verifying your email address"
        onClick={() => void onVerify()}
      >
        Verify my email address
      </BusyButton>
      <ExistingCustomerSignIn />
    </FormScreen>
  );
}
