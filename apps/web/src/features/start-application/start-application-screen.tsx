import {
  EMAIL_VERIFICATION_LIFETIME_HOURS,
  routes,
  type StartApplication,
  type StartApplicationResponse,
} from '@customer-core/contracts';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ExistingCustomerSignIn } from '../../components/existing-customer-sign-in';
import { FormScreen } from '../../components/form-screen';
import { SignedInPage } from '../../components/signed-in-shell/signed-in-page';
import { useAuth } from '../../lib/auth/use-auth';
import { readSignedInBorrower } from '../../lib/borrower-name';
import { useToasts } from '../../lib/toasts/toasts-context';
import { ApplicationForm } from './application-form';
import { startApplication, submitAsBorrower } from './start-application';
import './start-application.css';

interface Sent {
  application: StartApplicationResponse;
  values: StartApplication;
}

function CheckYourEmail({
  sent: { application, values },
  onStartAgain,
}: {
  sent: Sent;
  onStartAgain: () => void;
}) {
  const { t } = useLingui();
  const { email } = application;
  const { businessName } = values;
  return (
    <FormScreen
      title={t`Check your email`}
      tone="success"
      focusTitle
      testId="start-application-sent"
      intro={
        <p data-testid="start-application-sent-message">
          <Trans>
            Thank you. We sent a link to <strong>{email}</strong> to verify your email address.
          </Trans>
        </p>
      }
    >
      <section className="form-screen__actions" aria-labelledby="start-application-next-title">
        <h2 id="start-application-next-title">
          <Trans>What happens next</Trans>
        </h2>
        <ol className="start-application__next">
          <li>
            <Trans>
              Open the email and follow the link within{' '}
              <Plural value={EMAIL_VERIFICATION_LIFETIME_HOURS} one="# hour" other="# hours" />.
            </Trans>
          </li>
          <li>
            <Trans>
              One of our lending specialists reviews the application for {businessName} and contacts you about
              the documents we need.
            </Trans>
          </li>
        </ol>
        <p className="start-application__note">
          <Trans>
            Not there in a few minutes? Check your spam or junk folder, or start again to correct the address.
          </Trans>
        </p>
        <button type="button" className="button button--secondary button--block" onClick={onStartAgain}>
          <Trans>Start again</Trans>
        </button>
      </section>
      <ExistingCustomerSignIn />
    </FormScreen>
  );
}

/**
 * A signed-in borrower applies inside the signed-in shell: their name and address are the account's,
 * nothing to verify; the application is then on their home page.
 */
function SignedInApplication() {
  const { t } = useLingui();
  const [account] = useState(readSignedInBorrower);
  const navigate = useNavigate();
  const { addToast } = useToasts();
  return (
    <SignedInPage
      title={t`Apply for a loan`}
      intro={t`Tell us about your business and what you need. It takes about a minute; a lending specialist then contacts you.`}
      titleId="start-application-title"
      testId="start-application"
    >
      <div className="start-application__signed-in">
        <ApplicationForm
          defaultValues={undefined}
          account={{ name: account.name, email: account.email ?? '' }}
          send={async ({ businessName, amountRequested, purpose }) => {
            const outcome = await submitAsBorrower({ businessName, amountRequested, purpose });
            if (outcome.kind === 'failed') return outcome;
            addToast({ title: t`Application sent`, status: 'success' });
            void navigate(routes.dashboard.path);
            return outcome;
          }}
        />
      </div>
    </SignedInPage>
  );
}

/** What "Apply For a Loan" opens: the start of a loan application, verified by an e-mailed link. */
export function StartApplicationScreen() {
  const { status } = useAuth();
  return status === 'authenticated' ? <SignedInApplication /> : <SignedOutApplication />;
}

function SignedOutApplication() {
  const { t } = useLingui();
  const [sent, setSent] = useState<Sent | null>(null);
  const [previous, setPrevious] = useState<StartApplication | undefined>(undefined);

  if (sent) {
    return (
      <CheckYourEmail
        sent={sent}
        onStartAgain={() => {
          setPrevious(sent.values);
          setSent(null);
        }}
      />
    );
  }
  return (
    <FormScreen
      title={t`Apply for a loan`}
      intro={t`Tell us about your business and what you need. It takes about two minutes; we’ll then email you a link to verify your address.`}
      testId="start-application"
    >
      <ApplicationForm
        defaultValues={previous}
        send={async (values) => {
          const outcome = await startApplication(values);
          if (outcome.kind === 'failed') return outcome;
          setSent({ application: outcome.application, values });
          return { kind: 'sent' };
        }}
      />
      <ExistingCustomerSignIn />
    </FormScreen>
  );
}
