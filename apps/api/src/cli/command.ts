import type { ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import { LOAN_STATUSES, type Device, type LoanStatus } from '@customer-core/contracts';
import { usageError } from './cli-error.js';
import { centsOf } from './money.js';
import type { DatabaseSteps } from '../database-steps.js';
import type { PortalClient } from './portal-client.js';

// What every command is made of, and the checks they share: each names the option that is wrong.

export type Values = Record<string, string | boolean | undefined>;

export interface CommandContext {
  portal: PortalClient;
  /** One line of the command's output (stdout). */
  print(line: string): void;
  /** The words after the command, for a command that takes them (`positionals`). */
  positionals: string[];
  /**
   * The portal's database, for the steps run on it directly (migrations, after a restore), opened
   * from the server's settings in the environment; the caller closes it.
   */
  database(): Promise<DatabaseSteps>;
}

export interface Command {
  name: string;
  summary: string;
  /** Usage and options, as `<command> --help` prints them. */
  help: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** The words the command takes after its name (e.g. migrate up); none when unset. */
  positionals?: string[];
  /** 'database': a step on the portal's database itself (context.database), not a call to the portal. */
  runsOn?: 'database';
  run(values: Values, context: CommandContext): Promise<void>;
}

export const text = (values: Values, name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

/** Stops with one message naming every missing option. */
export function requireOptions(command: string, values: Values, names: string[]): void {
  const missing = names.filter((name) => text(values, name) === undefined).map((name) => `--${name}`);
  if (missing.length > 0)
    throw usageError(`${command} needs ${missing.join(', ')}. See: npm run cli -- ${command} --help`);
}

/** An amount option in dollars, as cents; undefined if the option is not given. */
export function centsOption(values: Values, name: string): number | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  const cents = centsOf(value);
  if (cents === undefined)
    throw usageError(`--${name} must be an amount in dollars, e.g. 250000 or 1250.50 (not "${value}").`);
  return cents;
}

/** A loan status, forgiving of case and of dashes for spaces (past-due = PAST DUE). */
export function statusOption(values: Values, name: string): LoanStatus | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  const status = value
    .trim()
    .toUpperCase()
    .replace(/[-_\s]+/g, ' ');
  if (!(LOAN_STATUSES as readonly string[]).includes(status))
    throw usageError(`--${name} must be one of ${LOAN_STATUSES.join(', ')} (not "${value}").`);
  return status as LoanStatus;
}

/** The next payment from --next-payment-date and --next-payment-amount: both or neither. */
export function nextPaymentOption(values: Values): { dueOn: string; amountCents: number } | undefined {
  const dueOn = text(values, 'next-payment-date');
  const amountCents = centsOption(values, 'next-payment-amount');
  if (dueOn === undefined && amountCents === undefined) return undefined;
  if (dueOn === undefined)
    throw usageError('--next-payment-amount needs --next-payment-date (YYYY-MM-DD) too.');
  if (amountCents === undefined)
    throw usageError('--next-payment-date needs --next-payment-amount (dollars) too.');
  return { dueOn, amountCents };
}

/** The request checked with the contract's schema; a problem names the option it came from. */
export function validated<T>(schema: z.ZodType<T>, input: unknown, optionOf: Record<string, string>): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const option = optionOf[issue.path.join('.')] ?? optionOf[String(issue.path[0] ?? '')];
    return option ? `${option}: ${issue.message}` : issue.message;
  });
  throw usageError(problems.join('\n'));
}

/** A device in a table cell: its browser and system ("Chrome / Windows"), or "-" when unrecognised. */
/** An instant as a table cell: 2026-11-27 13:02:05 (UTC), or - for none. */
export const utcCell = (iso: string | null) => (iso ? iso.slice(0, 19).replace('T', ' ') : '-');

export function deviceCell(device: Device | null): string {
  return [device?.browser, device?.system].filter(Boolean).join(' / ') || '-';
}

/** Prints rows as aligned columns under a header. */
export function table(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}
