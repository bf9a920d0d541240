import type { Instalment, Overdue } from '@customer-core/contracts';
import type { LoanQueries } from './loan-repository.js';

// A loan's payment schedule, as the lender's book records it, and what it means today: which
// instalments are paid, past due or upcoming, and for a loan behind on its payments, how far behind.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Today in the lender's calendar (UTC), YYYY-MM-DD. */
export const today = (now = new Date()): string => now.toISOString().slice(0, 10);

interface InstalmentRow {
  due_on: string;
  amount_cents: string | number;
  paid_on: string | null;
}

/** The schedule as of `day`: an unpaid instalment is past due once its due day has passed. */
export function describeSchedule(
  rows: InstalmentRow[],
  day: string,
): { instalments: Instalment[]; overdue: Overdue | null } {
  const instalments = rows.map((row): Instalment => ({
    dueOn: row.due_on,
    amountCents: Number(row.amount_cents),
    paidOn: row.paid_on,
    state: row.paid_on !== null ? 'paid' : row.due_on < day ? 'past_due' : 'upcoming',
  }));
  const late = instalments.filter((i) => i.state === 'past_due');
  const oldest = late[0];
  const overdue = oldest
    ? {
        amountCents: late.reduce((sum, i) => sum + i.amountCents, 0),
        daysLate: Math.round((Date.parse(day) - Date.parse(oldest.dueOn)) / DAY_MS),
        since: oldest.dueOn,
        instalments: late.length,
      }
    : null;
  return { instalments, overdue };
}

export function loanSchedules(loans: LoanQueries) {
  return {
    /** The loan's schedule, oldest first, described as of `day`. */
    async of(loanId: string, day = today()) {
      return describeSchedule(await loans.instalmentsOf(loanId), day);
    },

    /** Records an instalment: a new due day, or a change to the one on that day (its amount, its payment). */
    record: loans.recordInstalment,
  };
}
