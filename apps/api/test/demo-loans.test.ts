import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contradictionsOf } from '@customer-core/contracts';
import { loanWarnings } from '../src/loans/loan-book.js';
import { DEMO_LOANS } from '../src/loans/demo-borrower.js';
import { describeSchedule, today } from '../src/loans/loan-schedule.js';

// The demo borrower's loans add up, as a borrower checks them on their pages: nothing an operator would
// be refused or warned of.

const day = (inDays: number) => {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + inDays);
  return date.toISOString().slice(0, 10);
};

describe("the demo borrower's loans", () => {
  it('add up: the instalments make the amount lent, the unpaid ones the balance', () => {
    for (const loan of DEMO_LOANS) {
      const { amountCents: amounts, paidUpTo } = loan.schedule;
      if (amounts.length === 0) {
        assert.equal(loan.balanceCents, 0, loan.reference);
        continue;
      }
      const sum = (cents: number[]) => cents.reduce((total, each) => total + each, 0);
      assert.equal(sum(amounts), loan.amountCents, `${loan.reference}: instalments make the amount`);
      assert.equal(
        sum(amounts.slice(paidUpTo)),
        loan.balanceCents,
        `${loan.reference}: unpaid ones the balance`,
      );
    }
  });

  it('contradict nothing, and warn of nothing, their schedules as seeded', () => {
    for (const loan of DEMO_LOANS) {
      assert.deepEqual(contradictionsOf(loan), [], loan.reference);
      const rows = loan.schedule.dueInDays.map((days, i) => ({
        due_on: day(days),
        amount_cents: loan.schedule.amountCents[i]!,
        paid_on: i < loan.schedule.paidUpTo ? day(days) : null,
      }));
      const { overdue } = describeSchedule(rows, today());
      assert.deepEqual(loanWarnings(loan, overdue, today()), [], loan.reference);
      if (loan.status === 'PAST DUE') assert.ok(overdue, `${loan.reference} has a missed instalment`);
    }
  });
});
