import { LOCALES, type Locale } from '@customer-core/contracts';
import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { chooseLanguage } from '../i18n/language';
import './language-switcher.css';

// Each language is named in itself, so that a reader of either finds theirs: never translated.
export const LANGUAGE_NAMES: Record<Locale, { name: string; lang: string }> = {
  'en-US': { name: 'English', lang: 'en' },
  'es-US': { name: 'Español', lang: 'es' },
};

/**
 * The way to the other language: one button, named in that language. The screen stays where it is
 * and re-renders in it; `onChosen` keeps the choice further (a signed-in borrower's profile).
 */
export function LanguageSwitcher({ onChosen }: { onChosen?: (locale: Locale) => unknown }) {
  const { i18n } = useLingui();
  const [pending, setPending] = useState(false);
  const other = LOCALES.find((locale) => !i18n.locale.startsWith(locale.slice(0, 2))) ?? LOCALES[0];
  const { name, lang } = LANGUAGE_NAMES[other];
  return (
    <button
      type="button"
      className="language-switcher"
      lang={lang}
      disabled={pending}
      data-testid="language-switcher"
      onClick={() => {
        setPending(true);
        void chooseLanguage(other)
          .then(() => onChosen?.(other))
          .catch(() => undefined)
          .finally(() => setPending(false));
      }}
    >
      <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <path
          fill="none"
          stroke="currentColor"
          strokeWidth="1.3"
          d="M8 1.2a6.8 6.8 0 1 0 0 13.6A6.8 6.8 0 0 0 8 1.2Zm0 0c-1.9 1.8-2.8 4.1-2.8 6.8s.9 5 2.8 6.8m0-13.6c1.9 1.8 2.8 4.1 2.8 6.8s-.9 5-2.8 6.8M1.4 6h13.2M1.4 10h13.2"
        />
      </svg>
      {name}
    </button>
  );
}
