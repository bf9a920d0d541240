// No zod here: the portal reads these before its first paint, and zod comes later.
/** The languages the portal speaks, as BCP 47 tags: every screen, e-mail and document in both. */
export const LOCALES = ['en-US', 'es-US'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';

/**
 * The portal's language for a tag from elsewhere (a browser's language, an identity provider's
 * `locale` claim, which Okta writes as "es_US"): the same language, whatever its region; else null.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  const language = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((locale) => locale.toLowerCase().startsWith(`${language}-`)) ?? null;
}
