import { routes } from '@customer-core/contracts';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { BackToSignIn } from '../../components/back-to-sign-in';
import { Banner } from '../../components/banner';
import { FormScreen } from '../../components/form-screen';
import { InvalidLink } from '../../components/invalid-link';
import { useAuth } from '../../lib/auth/use-auth';
import type { SignInLocationState } from '../../lib/sign-in-notice';
import { PasswordSetForm, type PasswordSetOutcome } from '../../components/password-set/password-set-form';
import { Loading } from '../../components/loading';
import { isLoading, useLoad } from '../../lib/use-load';
import { checkPasswordResetLink, finishPasswordReset } from './finish-password-reset';

/** Spec section 2, password reset: the e-mailed link's page, where the borrower sets a new password. */
export function PasswordResetScreen() {
  const { t } = useLingui();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const { status, signOut } = useAuth();
  // The link is checked when the page opens (as the invitation page does): a dead one says so before
  // the borrower types a new password.
  const { state: link, setState: setLink } = useLoad(
    (signal) => checkPasswordResetLink(token, signal),
    [token],
  );
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = async ({ password }: { password: string }): Promise<PasswordSetOutcome> => {
    setFailure(null);
    const outcome = await finishPasswordReset(token, password);
    switch (outcome.kind) {
      case 'changed': {
        // A password change ends every session of the borrower, this browser's too.
        if (status !== 'unauthenticated') await signOut();
        // The sign-in screen's notice confirms it, beside the next step.
        const state: SignInLocationState = { notice: 'password-changed' };
        await navigate(routes.signIn.path, { replace: true, state });
        return;
      }
      case 'invalid-link':
        setLink('invalid-link');
        return;
      case 'password-refused':
        return { passwordError: outcome.message };
      case 'failed':
        setFailure(outcome.message);
    }
  };

  if (isLoading(link)) return <Loading />;
  if (link === 'invalid-link') {
    return (
      <InvalidLink
        requestPath={routes.forgotPassword.path}
        requestLabel={t`Request a new reset link`}
        testId="password-reset-invalid-link"
      />
    );
  }
  return (
    <FormScreen
      title={t`Set a new password`}
      intro={t`Pick a password you don’t use anywhere else. You’ll use it to sign in from now on.`}
      testId="password-reset"
    >
      <PasswordSetForm
        idPrefix="password-reset"
        submitLabel={t`Save new password`}
        pendingText={t`Saving your new password`}
        onSubmit={onSubmit}
        banner={
          failure && (
            <Banner type="error" onDismiss={() => setFailure(null)} testId="password-reset-error-banner">
              {failure}
            </Banner>
          )
        }
      />
      <BackToSignIn />
    </FormScreen>
  );
}
