import { matchLocale, type Locale } from '@customer-core/contracts';
import { activateLocale, i18n } from './catalogs';
import { PSEUDO_LOCALE, storeLocale } from './locale';

/** Makes `locale` the portal's language, here and on this browser's next visits. */
export async function chooseLanguage(locale: Locale): Promise<void> {
  storeLocale(locale);
  await activateLocale(locale);
}

/** The portal's language as the borrower chose it: null for the pseudo-locale, which is nobody's. */
export const chosenLanguage = (): Locale | null =>
  i18n.locale === PSEUDO_LOCALE ? null : matchLocale(i18n.locale);

/**
 * At sign-in: the language on the borrower's profile (the identity provider's `locale`, "es_US")
 * wins over this browser's: from the page the sign-in's redirect loads, or `now` where none follows.
 */
export function adoptProfileLanguage(profile: unknown, { now = false } = {}): void {
  const tag =
    typeof profile === 'object' && profile !== null ? (profile as { locale?: unknown }).locale : null;
  const locale = typeof tag === 'string' ? matchLocale(tag) : null;
  if (!locale || chosenLanguage() === null) return;
  storeLocale(locale);
  if (now) void activateLocale(locale).catch(() => undefined);
}
