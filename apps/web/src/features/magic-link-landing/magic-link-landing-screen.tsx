import { i18n } from '@lingui/core';
import { routes, toSafeReturnPath } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { BusyButton } from '../../components/busy-button';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { BackToSignIn } from '../../components/back-to-sign-in';
import { Banner } from '../../components/banner';
import { FormScreen } from '../../components/form-screen';
import { IdentityProviderUnavailable } from '../../components/identity-provider-unavailable';
import { InvalidLink } from '../../components/invalid-link';
import { Spinner } from '../../components/spinner';
import { getLenderBranding } from '../../config/portal-config-meta';
import { finishSignIn } from '../../lib/auth/sign-in';
import { completeLinkSignIn } from '../../lib/complete-link-sign-in';
import { loadIdentityProvider, type IdentityProviderClient } from '../../lib/identity-provider';
import { useIdentityProviderUnavailableReason } from '../../lib/identity-provider-availability';
import { clearProductSession, hasStoredAccessToken } from '../../lib/product-session';
import { peekReturnPath } from '../../lib/return-path';
import { SIGN_IN_FAILED, magicLinkLogin } from './magic-link-login';

const FactorStep = lazy(() =>
  import('../../components/factors/factor-step').then((module) => ({ default: module.FactorStep })),
);

// Rendered (in the borrower's language) wherever it is shown.
const requestNewLink = (
  <Trans>
    We couldn’t finish signing you in, and this link has now been used.{' '}
    <Link to={routes.magicLink.path}>Send me a new sign-in link</Link>
  </Trans>
);

/**
 * Spec section 2, magic-link landing. Opening the page spends nothing (mail scanners open links too):
 * only Continue does, with an explicit POST.
 */
export function MagicLinkLandingScreen() {
  const { t } = useLingui();
  const { token = '' } = useParams();
  const lenderName = getLenderBranding().name;
  const unavailable = useIdentityProviderUnavailableReason();
  const [pending, setPending] = useState(false);
  const [invalidLink, setInvalidLink] = useState(false);
  const [failure, setFailure] = useState<ReactNode>(null);
  // A borrower with a second factor: the identity provider's transaction, and where the sign-in leads.
  const [factor, setFactor] = useState<{ transaction: AuthnTransaction; originalUri: string }>();

  // Warm up the identity provider client while the borrower reads.
  useEffect(() => {
    loadIdentityProvider().catch(() => {});
  }, []);

  const fail = (message: ReactNode) => {
    setPending(false);
    setFailure(message);
  };

  const onContinue = async () => {
    setFailure(null);
    setPending(true);
    // The client first: if it cannot load, the link is still unspent.
    let client: IdentityProviderClient;
    try {
      client = await loadIdentityProvider();
    } catch {
      return fail(i18n._(SIGN_IN_FAILED));
    }
    const outcome = await magicLinkLogin(token);
    if (outcome.kind === 'invalid-link') return setInvalidLink(true);
    if (outcome.kind === 'failed') return fail(outcome.message);
    if (outcome.kind === 'factor') {
      const { stateToken, returnTo } = outcome.step;
      try {
        // Whoever was signed in in this browser before is not the one signing in now.
        if (hasStoredAccessToken()) clearProductSession('signed-out');
        const transaction = await client.tx.introspect({ stateToken });
        const originalUri = returnTo ? toSafeReturnPath(returnTo) : peekReturnPath();
        setPending(false);
        return setFactor({ transaction, originalUri });
      } catch (error) {
        console.error(new Error('Sign-in error: could not pick up the second factor step', { cause: error }));
        return fail(requestNewLink);
      }
    }
    try {
      // On success the page leaves for the identity provider.
      await completeLinkSignIn(client, outcome.session);
    } catch (error) {
      console.error(new Error('Sign-in error: could not complete the sign-in by link', { cause: error }));
      fail(requestNewLink);
    }
  };

  if (unavailable) return <IdentityProviderUnavailable />;
  if (factor) {
    // The link is spent: a way back is a new link, with whatever the factor step had to say.
    const restart = (message?: string) => {
      setFactor(undefined);
      setFailure(
        <>
          {message && `${message} `}
          <Link to={routes.magicLink.path}>
            <Trans>Send me a new sign-in link</Trans>
          </Link>
        </>,
      );
    };
    return (
      <FormScreen title={t`Sign in to ${lenderName}`} testId="magic-link-landing-factor">
        <Suspense fallback={<Spinner />}>
          <FactorStep
            transaction={factor.transaction}
            onRestart={restart}
            onSuccess={(transaction) => finishSignIn(transaction, factor.originalUri)}
          />
        </Suspense>
      </FormScreen>
    );
  }
  if (invalidLink) {
    return (
      <InvalidLink
        requestPath={routes.magicLink.path}
        requestLabel={t`Send me a new sign-in link`}
        testId="magic-link-invalid-link"
      />
    );
  }
  return (
    <FormScreen
      title={t`Sign in to ${lenderName}`}
      intro={
        <>
          <p>
            <Trans>
              You opened a sign-in link from your email. Select Continue to sign in to your account.
            </Trans>
          </p>
          <p>
            <Trans>Didn’t ask for this link? Close this page and nothing will happen.</Trans>
          </p>
        </>
      }
      testId="magic-link-landing"
    >
      {failure && (
        <Banner type="error" onDismiss={() => setFailure(null)} testId="magic-link-landing-error-banner">
          {failure}
        </Banner>
      )}
      <BusyButton type="button" busy={pending} busyText={t`Signing you in`} onClick={() => void onContinue()}>
        <Trans>Continue</Trans>
      </BusyButton>
      <BackToSignIn />
    </FormScreen>
  );
}
