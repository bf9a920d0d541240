import { DEFAULT_LOCALE, matchLocale, type Locale, type PaymentOptions } from '@customer-core/contracts';

// What the payment screens write beyond the loans' money and days (loans/loan-format.ts): a banking
// day with its weekday, the lender's cut-off with its zone, a deadline with the borrower's zone, a
// typed amount read back as cents, and the authorization's language and fingerprint.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{1,2}):(\d{2})$/;

const utcDay = (day: string): Date | null => {
  const match = DAY.exec(day);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
};

/** "2026-12-01" -> "Tue, Dec 1, 2026" ("mar, 1 de dic de 2026"): a banking day to choose from. */
export function formatBankingDay(day: string, locale: string): string {
  const date = utcDay(day);
  return date
    ? new Intl.DateTimeFormat(locale, {
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(date)
    : day;
}

/** The zone's offset from UTC at an instant, in milliseconds (New York in winter: -5 hours). */
function offsetAt(timeZone: string, instant: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'));
  return asUtc - Math.floor(instant / 60_000) * 60_000;
}

/**
 * The lender's cut-off on a day ("14:00" in America/New_York), as the borrower reads it: "2:00 PM ET"
 * ("2:00 p.m. ET"), its zone by its short name, or the zone's name as it came if it has none.
 */
export function formatCutoff(cutoff: PaymentOptions['cutoff'], day: string, locale: string): string {
  const date = utcDay(day);
  const time = TIME.exec(cutoff.time);
  if (!date || !time) return `${cutoff.time} ${cutoff.timeZone}`;
  try {
    const wallClock = date.getTime() + (Number(time[1]) * 60 + Number(time[2])) * 60_000;
    // The wall-clock time, less the zone's offset then (checked again across a change of summer time).
    let instant = wallClock - offsetAt(cutoff.timeZone, wallClock);
    instant = wallClock - offsetAt(cutoff.timeZone, instant);
    return new Intl.DateTimeFormat(locale, {
      hour: 'numeric',
      minute: '2-digit',
      timeZone: cutoff.timeZone,
      timeZoneName: 'shortGeneric',
    }).format(new Date(instant));
  } catch {
    // A zone this browser does not know.
    return `${cutoff.time} ${cutoff.timeZone}`;
  }
}

/** A deadline (ISO instant) in the borrower's own zone, named: "Dec 1, 2026, 2:00 PM EST". */
export function formatDeadline(iso: string, locale: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(time);
}

/**
 * An amount typed in dollars ("1,250", "$1,250.5", "1250.50") in cents; null for anything else (more
 * than two decimals, letters, a negative amount).
 */
export function parseDollars(typed: string): number | null {
  const plain = typed.replace(/[\s$,]/g, '');
  const match = /^(\d{1,9})(?:\.(\d{0,2}))?$|^\.(\d{1,2})$/.exec(plain);
  if (!match) return null;
  const dollars = Number(match[1] ?? '0');
  const cents = Number((match[2] ?? match[3] ?? '').padEnd(2, '0'));
  return dollars * 100 + cents;
}

/** The language of the authorization shown: the screen's (English for the pseudo-locale). */
export const authorizationLocale = (screenLocale: string): Locale =>
  matchLocale(screenLocale) ?? DEFAULT_LOCALE;

/** The SHA-256 of a text's UTF-8 bytes, in hex: the fingerprint of the authorization shown. */
export async function sha256Hex(text: string): Promise<string> {
  // eslint-disable-next-line lingui/no-unlocalized-strings -- an algorithm's name, not words
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
