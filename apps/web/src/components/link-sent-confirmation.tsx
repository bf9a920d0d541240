import { LINK_SENT_MESSAGE } from '@customer-core/contracts';
import { Trans, useLingui } from '@lingui/react/macro';
import { BackToSignIn } from './back-to-sign-in';
import { FormScreen } from './form-screen';
import { inPortalLanguage } from '../i18n/in-portal-language';

interface LinkSentConfirmationProps {
  /** How long the link works, e.g. '30 minutes'. */
  validFor: string;
  onSendAnother: () => void;
  testId: string;
}

/** What every address gets after asking for a link, known or not (no enumeration). */
export function LinkSentConfirmation({ validFor, onSendAnother, testId }: LinkSentConfirmationProps) {
  const { t } = useLingui();
  return (
    <FormScreen
      title={t`Check your email`}
      tone="success"
      focusTitle
      testId={testId}
      intro={
        <>
          <p data-testid="link-sent-message">{inPortalLanguage(LINK_SENT_MESSAGE)}</p>
          <p>
            <Trans>
              Open the email and follow the link. It works once, for {validFor}. If it hasn’t arrived in a few
              minutes, check your spam or junk folder.
            </Trans>
          </p>
        </>
      }
    >
      <div className="form-screen__actions">
        <button type="button" className="button button--secondary button--block" onClick={onSendAnother}>
          <Trans>Send another link</Trans>
        </button>
      </div>
      <BackToSignIn />
    </FormScreen>
  );
}
