import { i18n as portalI18n, type I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';

// Money and days as the borrower reads them, in the portal's language (US dollars in every one).
// Amounts come in whole cents; due dates are calendar days (YYYY-MM-DD), shown as the same day
// wherever the borrower is. `locale`: the language the screen is in (useLingui().i18n.locale).

/** The portal's language now (Lingui's), English before one is active. */
const activeLocale = (): string => portalI18n.locale || 'en-US';

interface Formats {
  usd: Intl.NumberFormat;
  calendarDay: Intl.DateTimeFormat;
  instant: Intl.DateTimeFormat;
}

// Made once per language.
const formatsByLocale = new Map<string, Formats>();
function formatsFor(locale: string): Formats {
  let formats = formatsByLocale.get(locale);
  if (!formats) {
    formats = {
      usd: new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }),
      // The day is built and read in UTC, so no time zone can move it to the day before.
      calendarDay: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }),
      instant: new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    };
    formatsByLocale.set(locale, formats);
  }
  return formats;
}

/** 123456 -> "$1,234.56". */
export function formatMoney(cents: number, locale = activeLocale()): string {
  return formatsFor(locale).usd.format(cents / 100);
}

/** "2026-07-15" -> "Jul 15, 2026" ("15 jul 2026" in Spanish); anything else is shown as it came. */
export function formatCalendarDate(day: string, locale = activeLocale()): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const [, year, month, date] = match.map(Number) as [number, number, number, number];
  return formatsFor(locale).calendarDay.format(new Date(Date.UTC(year, month - 1, date)));
}

/** A moment (ISO timestamp), in the borrower's own time zone: "Jul 15, 2026, 3:04 PM". */
export function formatInstant(iso: string, locale = activeLocale()): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : formatsFor(locale).instant.format(time);
}

/** Today in the lender's calendar (UTC), YYYY-MM-DD: a due day before it has passed. */
export const lenderToday = (now = new Date()): string => now.toISOString().slice(0, 10);

/** "1 day late", "12 days late". */
export const daysLate = (days: number, i18n: I18n = portalI18n): string =>
  i18n._(msg`${plural(days, { one: '# day late', other: '# days late' })}`);
