import { DEFAULT_LOCALE, LOCALE_STORAGE_KEY, matchLocale, type Locale } from '@customer-core/contracts';

/**
 * A pseudo-locale for finding what the catalogue misses and layouts that break with longer words:
 * English, accented and about a third longer. Chosen only by storing it (developers and tests).
 */
export const PSEUDO_LOCALE = 'en-XA';
export type DisplayLocale = Locale | typeof PSEUDO_LOCALE;

function storedChoice(): DisplayLocale | null {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    // Storage refused (a private window's settings): the browser's languages decide.
  }
  return stored === PSEUDO_LOCALE ? stored : matchLocale(stored);
}

/** The language before sign-in: the choice stored on this browser, else the browser's languages. */
export function initialLocale(): DisplayLocale {
  return (
    storedChoice() ??
    navigator.languages.map((tag) => matchLocale(tag)).find((locale) => locale !== null) ??
    DEFAULT_LOCALE
  );
}

/** Remembered on this browser, so that the next visit opens in it before anyone signs in. */
export function storeLocale(locale: DisplayLocale): void {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Not remembered: the choice still holds for this page.
  }
}
