import { routes } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { Banner } from '../../components/banner';
import { SignedInPage } from '../../components/signed-in-shell/signed-in-page';
import { BusyButton } from '../../components/busy-button';
import { confirmEmailChange } from './account-api';
import './account.css';

/**
 * The link e-mailed to a new sign-in address, opened while signed in. Opening the page spends nothing
 * (mail scanners open links too): only Continue does, with an explicit POST, and the change happens then.
 */
export function EmailChangeScreen() {
  const { t } = useLingui();
  const { token = '' } = useParams();
  const [pending, setPending] = useState(false);
  const [changedTo, setChangedTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (changedTo) doneRef.current?.focus();
  }, [changedTo]);

  const onContinue = async () => {
    setFailure(null);
    setPending(true);
    const outcome = await confirmEmailChange(token);
    setPending(false);
    if (outcome.kind === 'changed') setChangedTo(outcome.email);
    else setFailure(outcome.message);
  };

  return (
    <SignedInPage
      title={t`Confirm your new email address`}
      intro={t`You opened the link we sent to your new email address. Select Continue to sign in with it from now on.`}
      titleId="email-change-title"
      testId="email-change-page"
      back={{ to: routes.account.path, label: t`Back to sign-in and security` }}
    >
      <div className="account__section">
        {changedTo ? (
          <p
            className="account__notice account__notice--done"
            role="status"
            tabIndex={-1}
            ref={doneRef}
            data-testid="email-change-done"
          >
            <Trans>Your email address is changed. From now on, sign in with {changedTo}.</Trans>
          </p>
        ) : (
          <>
            {failure && (
              <Banner type="error" onDismiss={() => setFailure(null)} testId="email-change-error">
                {failure}
              </Banner>
            )}
            <BusyButton
              type="button"
              busy={pending}
              busyText={t`Changing your email address…`}
              onClick={() => void onContinue()}
            >
              <Trans>Continue</Trans>
            </BusyButton>
          </>
        )}
      </div>
    </SignedInPage>
  );
}
