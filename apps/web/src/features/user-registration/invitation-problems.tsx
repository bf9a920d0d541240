import { routes } from '@customer-core/contracts';
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
      Please contact us
      {hasPhone ? (
        <>
          {' at '}
          <span className="message-with-phone__phone">
            <SupportPhone />
          </span>
        </>
      ) : null}{' '}
      and we&rsquo;ll send you a new invitation.
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
  return (
    <FormScreen
      title="This invitation can’t be used"
      tone="warning"
      focusTitle
      testId="user-registration-invalid"
      intro={
        <ProblemMessage
          message={message}
          fallback={
            <>
              <p data-testid="invitation-problem-message">
                This invitation has expired, has already been used or was replaced by a newer one.
              </p>
              <ContactUs />
            </>
          }
        />
      }
    >
      <div className="form-screen__actions">
        <p>Already created your account?</p>
        <Link className="button button--primary button--block" to={routes.signIn.path}>
          Go to sign in
        </Link>
      </div>
    </FormScreen>
  );
}

/** The invited address has an account already: sign in, or set a new password if it is forgotten. */
export function AlreadyRegistered({ email, message }: { email: string | null; message: string | null }) {
  return (
    <FormScreen
      title="You already have an account"
      tone="info"
      focusTitle
      testId="user-registration-already-registered"
      intro={
        <ProblemMessage
          message={message}
          fallback={
            <>
              <p data-testid="invitation-problem-message">
                {email ? `There is already an account for ${email}.` : 'There is already an account for you.'}
              </p>
              <p>Sign in with its password. If you&rsquo;ve forgotten it, you can set a new one.</p>
            </>
          }
        />
      }
    >
      <div className="form-screen__actions">
        <Link className="button button--primary button--block" to={routes.signIn.path}>
          Go to sign in
        </Link>
        <Link className="button button--secondary button--block" to={routes.forgotPassword.path}>
          Reset your password
        </Link>
      </div>
    </FormScreen>
  );
}

/** The invitation could not be loaded (network, server fault): the link may well be fine. */
export function InvitationLookupFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <FormScreen
      title="We couldn’t load your invitation"
      tone="warning"
      focusTitle
      testId="user-registration-lookup-failed"
      intro={<p>{message}</p>}
    >
      <div className="form-screen__actions">
        <button type="button" className="button button--primary button--block" onClick={onRetry}>
          Try again
        </button>
      </div>
      <BackToSignIn />
    </FormScreen>
  );
}
