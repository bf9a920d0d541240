import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { BackToSignIn } from './back-to-sign-in';
import { FormScreen } from './form-screen';

export const INVALID_LINK_MESSAGE = msg`This link has expired or has already been used.`;

interface InvalidLinkProps {
  /** Where to ask for a new link, and the words for it. */
  requestPath: string;
  requestLabel: string;
  testId: string;
}

/** An e-mailed link the API refused (unknown, used or expired): say so, and offer a new one. */
export function InvalidLink({ requestPath, requestLabel, testId }: InvalidLinkProps) {
  const { t } = useLingui();
  return (
    <FormScreen
      title={t`This link can’t be used`}
      tone="warning"
      focusTitle
      testId={testId}
      intro={
        <>
          <p data-testid="invalid-link-message">{t(INVALID_LINK_MESSAGE)}</p>
          <p>
            <Trans>
              For your security, each link works only once and for a short time. You can ask for a new one.
            </Trans>
          </p>
        </>
      }
    >
      <div className="form-screen__actions">
        <Link className="button button--primary button--block" to={requestPath}>
          {requestLabel}
        </Link>
      </div>
      <BackToSignIn />
    </FormScreen>
  );
}
