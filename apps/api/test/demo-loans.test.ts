import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contradictionsOf } from '@customer-core/contracts';
import { loanWarnings } from '../src/loans/loan-book.js';
import { demoLoans } from '../src/loans/demo-borrower.js';
import { describeSchedule, today } from '../src/loans/loan-schedule.js';

// The demo borrower's loans add up, as a borrower checks them on their pages: nothing an operator would
// be refused or warned of.

describe("the demo borrower's loans", () => {
  it('add up: the instalments make the amount lent, the unpaid ones the balance', () => {
    for (const loan of demoLoans()) {
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
    for (const loan of demoLoans()) {
      assert.deepEqual(contradictionsOf(loan), [], loan.reference);
      const rows = loan.schedule.dueOn.map((day, i) => ({
        due_on: day,
        amount_cents: loan.schedule.amountCents[i]!,
        paid_on: i < loan.schedule.paidUpTo ? day : null,
      }));
      const { overdue } = describeSchedule(rows, today());
      assert.deepEqual(loanWarnings(loan, overdue, today()), [], loan.reference);
      if (loan.status === 'PAST DUE') assert.ok(overdue, `${loan.reference} has a missed instalment`);
    }
  });

  it('take every date from the one day they are seeded on, the next payment and the schedule alike', () => {
    // A second before midnight: what a process that started the day before seeds now is the new day's.
    const lastSecond = new Date('2026-11-28T23:59:59Z');
    const [active, pastDue] = demoLoans(lastSecond);
    assert.equal(active?.nextPayment?.dueOn, '2026-12-22');
    assert.equal(active?.schedule.dueOn[0], '2026-12-22');
    assert.equal(pastDue?.schedule.dueOn[4], '2026-11-16', 'the missed instalment, 12 days before');
    assert.equal(demoLoans(new Date('2026-11-29T00:00:00Z'))[0]?.nextPayment?.dueOn, '2026-12-23');
    for (const loan of demoLoans(lastSecond)) {
      const upcoming = loan.schedule.dueOn.findIndex(
        (day, i) => i >= loan.schedule.paidUpTo && day >= '2026-11-28',
      );
      assert.equal(loan.nextPayment?.dueOn ?? null, loan.schedule.dueOn[upcoming] ?? null, loan.reference);
    }
  });
});
