import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { BackToSignIn } from '../../components/back-to-sign-in';
import { Banner } from '../../components/banner';
import { BusyButton } from '../../components/busy-button';
import { FormScreen } from '../../components/form-screen';
import { InvalidLink } from '../../components/invalid-link';
import { SupportPhone } from '../../components/support-phone';
import { clearProductSession } from '../../lib/product-session';
import { reportUnrecognizedSignIn } from './report-unrecognized-sign-in';

/**
 * The "This wasn't me" link of a new-sign-in e-mail. Opening the page spends nothing (mail scanners
 * open links too): only Continue does, with an explicit POST. Then every session has ended, this
 * browser's too, and the borrower goes on to choose a new password.
 */
export function UnrecognizedSignInScreen() {
  const { t } = useLingui();
  const { token = '' } = useParams();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [outcome, setOutcome] = useState<'invalid-link' | { resetToken: string }>();

  const onContinue = async () => {
    setFailure(undefined);
    setPending(true);
    const result = await reportUnrecognizedSignIn(token);
    setPending(false);
    if (result.kind === 'failed') return setFailure(result.message);
    if (result.kind === 'invalid-link') return setOutcome('invalid-link');
    clearProductSession('signed-out');
    setOutcome({ resetToken: result.resetToken });
  };

  if (outcome === 'invalid-link') {
    return (
      <InvalidLink
        requestPath={routes.forgotPassword.path}
        requestLabel={t`Reset your password`}
        testId="unrecognized-sign-in-invalid-link"
      />
    );
  }
  if (outcome) {
    return (
      <FormScreen
        title={t`You’re signed out everywhere`}
        tone="success"
        focusTitle
        testId="unrecognized-sign-in-done"
        intro={
          <>
            <p>
              <Trans>No device is signed in to your account now, including this one.</Trans>
            </p>
            <p>
              <Trans>Whoever signed in may know your password. Choose a new one now.</Trans>
            </p>
            <p>
              <Trans>
                Questions or worries? Call us at <SupportPhone />.
              </Trans>
            </p>
          </>
        }
      >
        <div className="form-screen__actions">
          <Link
            className="button button--primary button--block"
            to={routes.passwordReset.href({ token: outcome.resetToken })}
          >
            <Trans>Choose a new password</Trans>
          </Link>
        </div>
      </FormScreen>
    );
  }
  return (
    <FormScreen
      title={t`Secure your account`}
      intro={
        <>
          <p>
            <Trans>
              You told us a new sign-in to your account wasn’t you. Select Continue to sign your account out
              on every device. Then you’ll choose a new password.
            </Trans>
          </p>
          <p>
            <Trans>Was the sign-in you after all? Close this page and nothing will happen.</Trans>
          </p>
        </>
      }
      testId="unrecognized-sign-in"
    >
      {failure && (
        <Banner
          type="error"
          onDismiss={() => setFailure(undefined)}
          testId="unrecognized-sign-in-error-banner"
        >
          {failure}
        </Banner>
      )}
      <BusyButton
        type="button"
        busy={pending}
        busyText={t`Signing you out everywhere`}
        onClick={() => void onContinue()}
      >
        <Trans>Continue</Trans>
      </BusyButton>
      <BackToSignIn />
    </FormScreen>
  );
}
