// The banking days of the Federal Reserve (design: payments.md section 6), computed by rule so that no
// table runs out: Monday to Friday except Fed holidays. A holiday on a Sunday closes the Monday after;
// one on a Saturday closes nothing (the Friday before is a banking day). Days are 'YYYY-MM-DD' strings,
// calendar days without a time or zone; only the cut-off turns one into an instant.

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day's midnight in UTC, as milliseconds: day arithmetic that no time zone or DST can shift. */
function utcMidnight(day: string): number {
  const match = DAY_FORMAT.exec(day);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  // Date.UTC rolls 2026-02-30 over to March: a day that does not come back the same is not a day.
  if (Number.isNaN(ms) || formatDay(ms) !== day) throw new RangeError(`Not a day (YYYY-MM-DD): ${day}`);
  return ms;
}

function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function shiftDays(day: string, days: number): string {
  return formatDay(utcMidnight(day) + days * DAY_MS);
}

/** The nth (1-based) given weekday (0 = Sunday) of a month; n = -1 is the last one. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n === -1) {
    const last = Date.UTC(year, month + 1, 0);
    return last - ((new Date(last).getUTCDay() - weekday + 7) % 7) * DAY_MS;
  }
  const first = Date.UTC(year, month, 1);
  return first + (((weekday - new Date(first).getUTCDay() + 7) % 7) + (n - 1) * 7) * DAY_MS;
}

const MONDAY = 1;
const THURSDAY = 4;

/**
 * The Fed's holidays of a year, on their own dates (before moving a Sunday one to Monday). Today's
 * rules: payments are never dated in years before a holiday existed.
 */
function holidayDates(year: number): number[] {
  return [
    Date.UTC(year, 0, 1), // New Year's Day
    nthWeekday(year, 0, MONDAY, 3), // Martin Luther King Jr.'s Birthday
    nthWeekday(year, 1, MONDAY, 3), // Washington's Birthday
    nthWeekday(year, 4, MONDAY, -1), // Memorial Day
    Date.UTC(year, 5, 19), // Juneteenth National Independence Day
    Date.UTC(year, 6, 4), // Independence Day
    nthWeekday(year, 8, MONDAY, 1), // Labor Day
    nthWeekday(year, 9, MONDAY, 2), // Columbus Day
    Date.UTC(year, 10, 11), // Veterans Day
    nthWeekday(year, 10, THURSDAY, 4), // Thanksgiving Day
    Date.UTC(year, 11, 25), // Christmas Day
  ];
}

const closedDaysByYear = new Map<number, ReadonlySet<string>>();

/** The weekdays of a year on which the Fed is closed for a holiday. */
function closedDays(year: number): ReadonlySet<string> {
  let closed = closedDaysByYear.get(year);
  if (!closed) {
    const days = new Set<string>();
    for (const date of holidayDates(year)) {
      const weekday = new Date(date).getUTCDay();
      if (weekday === 0) days.add(formatDay(date + DAY_MS));
      else if (weekday !== 6) days.add(formatDay(date));
    }
    closed = days;
    closedDaysByYear.set(year, closed);
  }
  return closed;
}

/** Whether the Fed settles ACH entries on the day. */
export function isBankingDay(day: string): boolean {
  const weekday = new Date(utcMidnight(day)).getUTCDay();
  // No holiday falls on Dec 31, so a closed Monday is always in its holiday's year.
  return weekday !== 0 && weekday !== 6 && !closedDays(Number(day.slice(0, 4))).has(day);
}

/** The first banking day strictly after the day. */
export function nextBankingDay(day: string): string {
  let next = shiftDays(day, 1);
  while (!isBankingDay(next)) next = shiftDays(next, 1);
  return next;
}

/** The last banking day strictly before the day. */
export function previousBankingDay(day: string): string {
  let previous = shiftDays(day, -1);
  while (!isBankingDay(previous)) previous = shiftDays(previous, -1);
  return previous;
}

/** The day itself if it is a banking day, else the next one (how a due date rolls). */
export function bankingDayOnOrAfter(day: string): string {
  return isBankingDay(day) ? day : nextBankingDay(day);
}

/** The nth banking day after the day (before it when n is negative); the day itself when n is 0. */
export function addBankingDays(day: string, n: number): string {
  if (!Number.isInteger(n)) throw new RangeError(`Not a whole number of banking days: ${n}`);
  utcMidnight(day);
  let result = day;
  for (let i = 0; i < Math.abs(n); i++) result = n > 0 ? nextBankingDay(result) : previousBankingDay(result);
  return result;
}

// Cut-offs: the bank takes a file for the next banking day until a local time in its own zone.

export interface BankCalendar {
  /** The bank's IANA time zone, e.g. 'America/New_York'. */
  timeZone: string;
  /** The bank's cut-off, 'HH:MM' in its zone. */
  cutoff: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of an instant in a zone, read as if it were UTC (milliseconds, whole seconds). */
function wallClock(zone: string, at: number): number {
  let format = formatters.get(zone);
  if (!format) {
    // Throws a RangeError for a zone Intl does not know: a misconfigured calendar fails loudly.
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, format);
  }
  const parts = format.formatToParts(at);
  const field = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(
    field('year'),
    field('month') - 1,
    field('day'),
    field('hour'),
    field('minute'),
    field('second'),
  );
}

/** How far the zone's clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(zone: string, at: number): number {
  const whole = Math.floor(at / 1000) * 1000;
  return wallClock(zone, whole) - whole;
}

/** The local calendar day of an instant in the zone. */
export function dayIn(zone: string, at: Date): string {
  return formatDay(wallClock(zone, at.getTime()));
}

const CUTOFF_FORMAT = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The instant of the cut-off on a day: its local time in the zone, with the offset in force that day
 * (DST-correct). A time the clocks skip counts as that time after the jump, and a time they repeat
 * as its first occurrence; cut-offs are in business hours, far from either.
 */
export function cutoffInstant(calendar: BankCalendar, day: string): Date {
  const time = CUTOFF_FORMAT.exec(calendar.cutoff);
  if (!time) throw new RangeError(`Not a cut-off time (HH:MM): ${calendar.cutoff}`);
  const local = utcMidnight(day) + (Number(time[1]) * 60 + Number(time[2])) * 60 * 1000;
  // The offsets a day either side: zones change offset at most once in two days.
  const before = local - offsetAt(calendar.timeZone, local - DAY_MS);
  const after = local - offsetAt(calendar.timeZone, local + DAY_MS);
  const fits = (at: number) => wallClock(calendar.timeZone, at) === local;
  if (fits(before) && fits(after)) return new Date(Math.min(before, after));
  if (fits(after)) return new Date(after);
  return new Date(before);
}

/** The banking day whose cut-off a payment effective on `effectiveOn` must be sent by: the banking day before it. */
export function sendByDay(effectiveOn: string): string {
  return previousBankingDay(effectiveOn);
}

/** Whether a payment effective on the day may still be changed or cancelled at `now` (before the cut-off of its send-by day). */
export function beforeCutoff(calendar: BankCalendar, effectiveOn: string, now: Date): boolean {
  return now.getTime() < cutoffInstant(calendar, sendByDay(effectiveOn)).getTime();
}

/**
 * The earliest effective date a payment made at `now` can have: the first banking day whose send-by
 * day's cut-off is still ahead. Days up to today in the bank's zone cannot be: their send-by days are
 * past.
 */
export function earliestEffectiveDate(calendar: BankCalendar, now: Date): string {
  let day = nextBankingDay(dayIn(calendar.timeZone, now));
  while (!beforeCutoff(calendar, day, now)) day = nextBankingDay(day);
  return day;
}
