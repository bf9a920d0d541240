import { LOCALES, type Locale } from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { FormActions } from '../../components/form-actions';
import { LANGUAGE_NAMES } from '../../components/language-switcher';
import { chooseLanguage, chosenLanguage } from '../../i18n/language';
import { saveProfileLanguage } from '../../lib/profile-language';
import { AccountRow } from './account-row';
import { SectionNotice, type SectionNoticeText } from './section-parts';

const SAVED = msg`Saved. We’ll write to you in this language too.`;

/**
 * The language row: the portal's screens and the e-mails sent to the borrower. Saved on their
 * profile, so that their other browsers and their next sign-in follow it; the page turns to it at once.
 */
export function LanguageSection() {
  const { t } = useLingui();
  const [notice, setNotice] = useState<SectionNoticeText | null>(null);
  const current = chosenLanguage();
  return (
    <AccountRow
      row="language"
      title={t`Language`}
      testId="account-language"
      summary={
        current ? <span lang={LANGUAGE_NAMES[current].lang}>{LANGUAGE_NAMES[current].name}</span> : null
      }
      summaryTestId="account-language-summary"
      action={t`Change`}
      actionTestId="account-language-open"
      onOpen={() => setNotice(null)}
      notices={<SectionNotice notice={notice} testId="account-language-notice" takeFocus={false} />}
    >
      {({ close }) => (
        <LanguageForm
          current={current}
          onCancel={() => close()}
          onSaved={(saved) => {
            setNotice(saved);
            close();
          }}
        />
      )}
    </AccountRow>
  );
}

function LanguageForm({
  current,
  onCancel,
  onSaved,
}: {
  current: Locale | null;
  onCancel: () => void;
  onSaved: (notice: SectionNoticeText) => void;
}) {
  const { t, i18n } = useLingui();
  const [choice, setChoice] = useState<Locale>(current ?? LOCALES[0]);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    await chooseLanguage(choice);
    const saved = await saveProfileLanguage(choice);
    setBusy(false);
    onSaved(saved.ok ? { tone: 'done', text: i18n._(SAVED) } : { tone: 'problem', text: saved.message });
  };

  return (
    <form className="account-row__form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <fieldset className="account-language__choices">
        <legend className="account-language__legend">
          <Trans>The portal and the emails we send you, in</Trans>
        </legend>
        {LOCALES.map((locale) => (
          <label key={locale} className="account-language__choice">
            <input
              type="radio"
              name="account-language"
              value={locale}
              checked={choice === locale}
              onChange={() => setChoice(locale)}
              data-testid={`account-language-${locale}`}
            />
            <span lang={LANGUAGE_NAMES[locale].lang}>{LANGUAGE_NAMES[locale].name}</span>
          </label>
        ))}
      </fieldset>
      <p className="account-row__intro">
        <Trans>Loan agreements and other documents stay in the language your lender wrote them in.</Trans>
      </p>
      <FormActions busy={busy} busyText={t`Saving…`} onCancel={onCancel} testId="account-language-save">
        <Trans>Save</Trans>
      </FormActions>
    </form>
  );
}
