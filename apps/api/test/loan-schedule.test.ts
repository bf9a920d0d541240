import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  operatorEndpoints,
  LoanDetailSchema,
  LoanScheduleSchema,
  type LoanDetail,
  loanEndpoints,
} from '@customer-core/contracts';
import { describeSchedule, today } from '../src/loans/loan-schedule.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import {
  activeLoan,
  addLoan,
  call,
  loanIdOf,
  newBorrowerToken,
  OPERATOR_ENV,
  OPERATOR_SECRET,
} from './support/loans.js';
import { demoAccessToken } from './support/session.js';

/** A calendar day this many days from today (UTC), as the lender's book writes it. */
const daysFromToday = (days: number) => {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + days);
  return today(date);
};

describe('a payment schedule as of a day', () => {
  const rows = [
    { due_on: '2026-09-01', amount_cents: '1000', paid_on: '2026-08-30' },
    { due_on: '2026-10-01', amount_cents: 1000, paid_on: null },
    { due_on: '2026-11-01', amount_cents: 1500, paid_on: null },
    { due_on: '2026-11-23', amount_cents: 1000, paid_on: null },
    { due_on: '2026-12-01', amount_cents: 1000, paid_on: null },
  ];

  it('is paid, past due once the day has passed unpaid, upcoming from the due day on', () => {
    const { instalments } = describeSchedule(rows, '2026-11-23');
    assert.deepEqual(
      instalments.map((i) => i.state),
      ['paid', 'past_due', 'past_due', 'upcoming', 'upcoming'],
    );
    assert.deepEqual(instalments[0], {
      dueOn: '2026-09-01',
      amountCents: 1000,
      paidOn: '2026-08-30',
      state: 'paid',
    });
  });

  it('owes the unpaid past instalments, late since the oldest of them', () => {
    assert.deepEqual(describeSchedule(rows, '2026-11-23').overdue, {
      amountCents: 2500,
      daysLate: 53,
      since: '2026-10-01',
      instalments: 2,
    });
    assert.equal(describeSchedule(rows, '2026-10-01').overdue, null, 'due today is not late yet');
    assert.equal(describeSchedule(rows.slice(0, 1), '2027-01-01').overdue, null);
  });
});

describe('payment schedules in the loan book', () => {
  let server: TestServer;
  let url: string;
  let demo: string;
  let other: string;

  before(async () => {
    server = await startTestServer('pglite', OPERATOR_ENV);
    url = server.baseUrl;
    demo = await demoAccessToken(url);
    other = await newBorrowerToken(server, 'olga.other@example.com');
  });
  after(() => server?.close());

  const detail = async (token: string, reference: string): Promise<LoanDetail> => {
    const answer = await call(
      url,
      'GET',
      loanEndpoints.loan.href({ loanId: await loanIdOf(server, reference) }),
      token,
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return LoanDetailSchema.parse(answer.body);
  };
  /** An operator's call; `null` sends no credential at all. */
  const record = (reference: string, body: unknown, credential: string | null = OPERATOR_SECRET) =>
    call(url, 'POST', operatorEndpoints.loanInstalments.href({ reference }), credential ?? undefined, body);

  it("shows the demo borrower's schedules: a missed instalment, a new loan, a paid-off one", async () => {
    const pastDue = await detail(demo, 'LN-DEMO-2');
    assert.deepEqual(
      pastDue.instalments.map((i) => i.state),
      [...Array<string>(4).fill('paid'), 'past_due', ...Array<string>(31).fill('upcoming')],
    );
    assert.deepEqual(pastDue.overdue, {
      amountCents: 236_111,
      daysLate: 12,
      since: daysFromToday(-12),
      instalments: 1,
    });

    const active = await detail(demo, 'LN-DEMO-1');
    assert.equal(active.overdue, null);
    assert.deepEqual(new Set(active.instalments.map((i) => i.state)), new Set(['upcoming']));
    assert.equal(active.instalments[0]?.dueOn, active.nextPayment?.dueOn);

    const paid = await detail(demo, 'LN-DEMO-3');
    assert.equal(paid.instalments.length, 12);
    assert.ok(paid.instalments.every((i) => i.state === 'paid' && i.paidOn === i.dueOn));
  });

  it('records instalments and payments from operators, one per due day, and the borrower sees them', async () => {
    const borrower = 'paula.payer@example.com';
    assert.equal((await addLoan(url, activeLoan('LN-SCHED-1', borrower))).status, 201);
    const token = await newBorrowerToken(server, borrower);

    const missed = await record('LN-SCHED-1', { dueOn: daysFromToday(-5), amountCents: 120_000 });
    assert.equal(missed.status, 200, JSON.stringify(missed.body));
    const schedule = LoanScheduleSchema.parse(missed.body);
    assert.deepEqual(schedule.instalments, [
      { dueOn: daysFromToday(-5), amountCents: 120_000, paidOn: null, state: 'past_due' },
    ]);
    await record('LN-SCHED-1', { dueOn: daysFromToday(25), amountCents: 120_000 });
    let loan = await detail(token, 'LN-SCHED-1');
    assert.deepEqual(loan.overdue, {
      amountCents: 120_000,
      daysLate: 5,
      since: daysFromToday(-5),
      instalments: 1,
    });

    // The payment of the missed instalment: the same due day again, now with the day it was paid.
    await record('LN-SCHED-1', {
      dueOn: daysFromToday(-5),
      amountCents: 120_000,
      paidOn: daysFromToday(0),
    });
    loan = await detail(token, 'LN-SCHED-1');
    assert.equal(loan.overdue, null);
    assert.deepEqual(
      loan.instalments.map((i) => [i.state, i.paidOn]),
      [
        ['paid', daysFromToday(0)],
        ['upcoming', null],
      ],
    );
  });

  it('refuses an unknown loan, a bad instalment and a caller without the operator credential', async () => {
    const unknown = await record('LN-NOPE-1', { dueOn: '2027-01-01', amountCents: 100 });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, 'not_found');
    for (const body of [
      {},
      { dueOn: '2027-02-30', amountCents: 100 },
      { dueOn: '2027-01-01', amountCents: 0 },
      { dueOn: '2027-01-01', amountCents: 12.5 },
      { dueOn: '2027-01-01', amountCents: 100, paidOn: 'yesterday' },
      { dueOn: '2027-01-01\u0000', amountCents: 100 },
    ]) {
      const answer = await record('LN-DEMO-1', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(typeof answer.body.message, 'string');
    }
    assert.equal((await record('LN-DEMO-1', { dueOn: '2027-01-01', amountCents: 100 }, null)).status, 401);
    assert.equal((await record('LN-DEMO-1', { dueOn: '2027-01-01', amountCents: 100 }, demo)).status, 403);
    const untouched = await detail(demo, 'LN-DEMO-1');
    assert.ok(!untouched.instalments.some((i) => i.dueOn === '2027-01-01'));
  });

  it("never shows a schedule to another borrower: someone else's loan is not found", async () => {
    const answer = await call(
      url,
      'GET',
      loanEndpoints.loan.href({ loanId: await loanIdOf(server, 'LN-DEMO-2') }),
      other,
    );
    assert.equal(answer.status, 404);
    assert.ok(!JSON.stringify(answer.body).includes('231275'));
  });
});
