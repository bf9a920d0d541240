import type { AuthnTransaction } from '@okta/okta-auth-js/authn';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense } from 'react';
import { FormScreen } from '../../components/form-screen';
import { Spinner } from '../../components/spinner';

const FactorStep = lazy(() =>
  import('../../components/factors/factor-step').then((module) => ({ default: module.FactorStep })),
);

/**
 * The account exists, and the lender asks every borrower for a second factor (MFA_POLICY=required):
 * the sign-in's own enrolment screens, in the identity provider's transaction, before any session.
 */
export function RegistrationFactorStep({
  email,
  transaction,
  onSuccess,
  onRestart,
}: {
  email: string;
  transaction: AuthnTransaction;
  onSuccess(transaction: AuthnTransaction): Promise<void>;
  onRestart(message?: string): void;
}) {
  const { t } = useLingui();
  return (
    <FormScreen
      title={t`Your account is ready`}
      tone="success"
      testId="user-registration-factor"
      intro={
        <p>
          <Trans>Your account for {email} has been created. One more step before you sign in.</Trans>
        </p>
      }
    >
      <Suspense fallback={<Spinner />}>
        <FactorStep transaction={transaction} onSuccess={onSuccess} onRestart={onRestart} />
      </Suspense>
    </FormScreen>
  );
}
