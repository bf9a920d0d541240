import {
  EMAIL_VERIFICATION_LIFETIME_HOURS,
  routes,
  type EmailVerificationResponse,
} from '@customer-core/contracts';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  return (
    <FormScreen
      title={alreadyVerified ? t`Your email address is already verified` : t`Your email address is verified`}
      tone="success"
      focusTitle
      testId="email-verification-verified"
      intro={
        <>
          <p data-testid="email-verification-outcome">
            {alreadyVerified ? (
              <Trans>
                We had already confirmed <strong>{email}</strong> for the loan application of{' '}
                <strong>{businessName}</strong>. There’s nothing more to do here.
              </Trans>
            ) : (
              <Trans>
                Thank you. We’ve confirmed <strong>{email}</strong> for the loan application of{' '}
                <strong>{businessName}</strong>.
              </Trans>
            )}
          </p>
          <p>
            <Trans>
              What happens next: one of our lending specialists reviews your application and contacts you at
              this address about the documents we need. You can close this page.
            </Trans>
          </p>
        </>
      }
    >
      <ExistingCustomerSignIn />
    </FormScreen>
  );
}

function InvalidVerificationLink({ message }: { message: string | null }) {
  const { t } = useLingui();
  return (
    <FormScreen
      title={t`This link can’t be used`}
      tone="warning"
      focusTitle
      testId="email-verification-invalid-link"
      intro={
        <>
          <p data-testid="email-verification-outcome">
            <MessageWithPhone message={message ?? t(INVALID_LINK_MESSAGE)} />
          </p>
          <p>
            <Trans>
              A verification link works for{' '}
              <Plural value={EMAIL_VERIFICATION_LIFETIME_HOURS} one="# hour" other="# hours" />. Start a new
              application and we’ll send you a new link.
            </Trans>
          </p>
        </>
      }
    >
      <div className="form-screen__actions">
        <Link className="button button--primary button--block" to={routes.startApplication.path}>
          <Trans>Start a new application</Trans>
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
  const { t } = useLingui();
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
      title={t`Verify your email`}
      intro={
        <>
          <p>
            <Trans>
              You opened the link we sent when you started a loan application. Select the button below to
              confirm that this email address is yours.
            </Trans>
          </p>
          <p>
            <Trans>Didn’t apply? Close this page and nothing will happen.</Trans>
          </p>
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
        busyText={t`Verifying your email address`}
        onClick={() => void onVerify()}
      >
        <Trans>Verify my email address</Trans>
      </BusyButton>
      <ExistingCustomerSignIn />
    </FormScreen>
  );
}
