// Money and days as the borrower reads them. Amounts come in whole cents; due dates are calendar
// days (YYYY-MM-DD), shown as the same day wherever the borrower is.

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
// The day is built and read in UTC, so no time zone can move it to the day before.
const calendarDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const instant = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** 123456 -> "$1,234.56". */
export function formatMoney(cents: number): string {
  return usd.format(cents / 100);
}

/** "2026-07-15" -> "Jul 15, 2026"; anything else is shown as it came. */
export function formatCalendarDate(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return day;
  const [, year, month, date] = match.map(Number) as [number, number, number, number];
  return calendarDay.format(new Date(Date.UTC(year, month - 1, date)));
}

/** A moment (ISO timestamp), in the borrower's own time zone: "Jul 15, 2026, 3:04 PM". */
export function formatInstant(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : instant.format(time);
}

/** Today in the lender's calendar (UTC), YYYY-MM-DD: a due day before it has passed. */
export const lenderToday = (now = new Date()): string => now.toISOString().slice(0, 10);

/** "1 day late", "12 days late". */
export const daysLate = (days: number): string => `${days} ${days === 1 ? 'day' : 'days'} late`;
