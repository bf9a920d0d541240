import { DEFAULT_LOCALE, type Locale } from '@customer-core/contracts';
import { enUS } from './en-US.js';
import { esUS } from './es-US.js';
import type { MailWords } from './mail-words.js';

export type { Brand, MailWords } from './mail-words.js';

/** Every language's words: a language of LOCALES without its words here fails the build. */
const MAIL_WORDS: Record<Locale, MailWords> = { 'en-US': enUS, 'es-US': esUS };

/** The words of a message in `locale` (English when none is given). */
export const wordsOf = (locale: Locale = DEFAULT_LOCALE): MailWords => MAIL_WORDS[locale];

/** "1 minute", "30 minutos": a count and its unit, the unit's plural by Intl.PluralRules. */
function counted(locale: Locale, n: number, unit: keyof MailWords['units']): string {
  const names = wordsOf(locale).units[unit];
  const name = names[new Intl.PluralRules(locale).select(n)] ?? names.other;
  return `${new Intl.NumberFormat(locale, { useGrouping: false }).format(n)} ${name}`;
}

/** How long a link lasts: 30 -> "30 minutes", 60 -> "1 hour", 1440 -> "24 hours", 4320 -> "3 days". */
export function durationIn(locale: Locale, minutes: number): string {
  const whole = Math.max(1, Math.round(minutes));
  const day = 24 * 60;
  if (whole % day === 0 && whole >= 2 * day) return counted(locale, whole / day, 'day');
  if (whole % 60 === 0) return counted(locale, whole / 60, 'hour');
  return counted(locale, whole, 'minute');
}

/** How long a code lasts, in minutes always: "1 minute", "5 minutes". */
export const minutesIn = (locale: Locale, minutes: number): string => counted(locale, minutes, 'minute');
