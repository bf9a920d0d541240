import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BackToSignIn } from '../../components/back-to-sign-in';
import { FormScreen } from '../../components/form-screen';
import { MessageWithPhone } from '../../components/message-with-phone';
import { SupportPhone } from '../../components/support-phone';
import { getLenderBranding } from '../../config/portal-config-meta';

// What the registration page shows instead of the form when the invitation cannot be used.

function ContactUs() {
  const hasPhone = getLenderBranding().supportPhone !== null;
  return (
    <p>
      {hasPhone ? (
        <Trans>
          Please contact us at{' '}
          <span className="message-with-phone__phone">
            <SupportPhone />
          </span>{' '}
          and we’ll send you a new invitation.
        </Trans>
      ) : (
        <Trans>Please contact us and we’ll send you a new invitation.</Trans>
      )}
    </p>
  );
}

/** The API's message (it names whom to call), or our own words when it sent none. */
function ProblemMessage({ message, fallback }: { message: string | null; fallback: ReactNode }) {
  if (!message) return fallback;
  return (
    <p data-testid="invitation-problem-message">
      <MessageWithPhone message={message} />
    </p>
  );
}

/** Unknown, expired, used or replaced: the API's message says whom to contact. */
export function InvalidInvitation({ message }: { message: string | null }) {
  const { t } = useLingui();
  return (
    <FormScreen
      title={t`This invitation can’t be used`}
      tone="warning"
      focusTitle
      testId="user-registration-invalid"
      intro={
        <ProblemMessage
          message={message}
          fallback={
            <>
              <p data-testid="invitation-problem-message">
                <Trans>
                  This invitation has expired, has already been used or was replaced by a newer one.
                </Trans>
              </p>
              <ContactUs />
            </>
          }
        />
      }
    >
      <div className="form-screen__actions">
        <p>
          <Trans>Already created your account?</Trans>
        </p>
        <Link className="button button--primary button--block" to={routes.signIn.path}>
          <Trans>Go to sign in</Trans>
        </Link>
      </div>
    </FormScreen>
  );
}

/** The invited address has an account already: sign in, or set a new password if it is forgotten. */
export function AlreadyRegistered({ email, message }: { email: string | null; message: string | null }) {
  const { t } = useLingui();
  return (
    <FormScreen
      title={t`You already have an account`}
      tone="info"
      focusTitle
      testId="user-registration-already-registered"
      intro={
        <ProblemMessage
          message={message}
          fallback={
            <>
              <p data-testid="invitation-problem-message">
                {email ? (
                  <Trans>There is already an account for {email}.</Trans>
                ) : (
                  <Trans>There is already an account for you.</Trans>
                )}
              </p>
              <p>
                <Trans>Sign in with its password. If you’ve forgotten it, you can set a new one.</Trans>
              </p>
            </>
          }
        />
      }
    >
      <div className="form-screen__actions">
        <Link className="button button--primary button--block" to={routes.signIn.path}>
          <Trans>Go to sign in</Trans>
        </Link>
        <Link className="button button--secondary button--block" to={routes.forgotPassword.path}>
          <Trans>Reset your password</Trans>
        </Link>
      </div>
    </FormScreen>
  );
}

/** The invitation could not be loaded (network, server fault): the link may well be fine. */
export function InvitationLookupFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useLingui();
  return (
    <FormScreen
      title={t`We couldn’t load your invitation`}
      tone="warning"
      focusTitle
      testId="user-registration-lookup-failed"
      intro={<p>{message}</p>}
    >
      <div className="form-screen__actions">
        <button type="button" className="button button--primary button--block" onClick={onRetry}>
          <Trans>Try again</Trans>
        </button>
      </div>
      <BackToSignIn />
    </FormScreen>
  );
}
