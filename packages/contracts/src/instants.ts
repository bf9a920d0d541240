import { z } from 'zod';

// Times a client names: paging cursors, the System Log's since and until, due dates. JavaScript's
// dates reach the year 275760 and PostgreSQL's timestamptz 294276, but PostgreSQL has no year 0 (which
// JavaScript has) and the drivers write years past 9999 in forms it does not read back. Years 1 to
// 9999 mean the same on both sides, so that is what a client may name; past it, a 400, not a 500.

export const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
export const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether a time (milliseconds since 1970) is one the database and JavaScript both hold. */
export const isStorableInstant = (time: number): boolean =>
  Number.isInteger(time) && time >= EARLIEST_INSTANT && time <= LATEST_INSTANT;

/**
 * An instant in ISO 8601 with its offset (2026-01-01T00:00:00Z, 2026-01-01T09:30:00.000+02:00): a day
 * the calendar has, years 1 to 9999.
 */
export const instantSchema = (message: string) =>
  z
    .string()
    .max(64, message)
    .pipe(z.iso.datetime({ offset: true, message }))
    .refine((value) => isStorableInstant(Date.parse(value)), message)
    .transform((value) => new Date(value));
