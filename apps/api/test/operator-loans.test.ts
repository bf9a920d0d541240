import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  authEndpoints,
  operatorEndpoints,
  BorrowerListSchema,
  LoanDetailSchema,
  LoanListSchema,
  OperatorLoanSchema,
  type AddLoanRequest,
  type BorrowerList,
  loanEndpoints,
} from '@customer-core/contracts';
import { startTestServer, type TestServer } from '../testing/index.js';
import {
  accessTokenOf,
  activeLoan,
  addLoan,
  call,
  newBorrowerSignedInThroughIdp,
  newBorrowerToken,
  OPERATOR_ENV,
  OPERATOR_SECRET,
} from './support/loans.js';
import { demoAccessToken } from './support/session.js';

describe(`operators' loan and borrower calls`, () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startTestServer('pglite', OPERATOR_ENV);
    url = server.baseUrl;
  });
  after(() => server?.close());

  const update = (reference: string, body: unknown) =>
    call(url, 'PATCH', operatorEndpoints.loan.href({ reference }), OPERATOR_SECRET, body);
  const borrowers = async (): Promise<BorrowerList['borrowers']> => {
    const { status, body } = await call(url, 'GET', operatorEndpoints.borrowers.path, OPERATOR_SECRET);
    assert.equal(status, 200);
    return BorrowerListSchema.parse(body).borrowers;
  };
  const borrowerNamed = async (email: string) => (await borrowers()).find((b) => b.email === email);
  const badRequest = (answer: { status: number; body: Record<string, unknown> }, message: RegExp) => {
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.error, 'bad_request');
    assert.match(String(answer.body.message), message);
  };

  it('refuses every call without the service credential, or with a wrong one', async () => {
    const loan = activeLoan('LN-AUTH-1', 'nobody@example.com');
    for (const token of [undefined, 'wrong-credential-wrong-credential-wrong', `${OPERATOR_SECRET}x`]) {
      for (const answer of [
        await call(url, 'POST', operatorEndpoints.loans.path, token, loan),
        await call(url, 'PATCH', operatorEndpoints.loan.href({ reference: 'LN-DEMO-1' }), token, {
          status: 'PAID',
        }),
        await call(url, 'GET', operatorEndpoints.borrowers.path, token),
        // Without the credential, nothing about the body is checked or told.
        await call(url, 'POST', operatorEndpoints.loans.path, token, { amount: 'lots' }),
        await call(url, 'POST', operatorEndpoints.invitations.path, token, {}),
        await call(url, 'POST', authEndpoints.mintLookupToken.path, token, { borrowerId: 'not-a-uuid' }),
      ]) {
        assert.equal(answer.status, 401, JSON.stringify(answer.body));
        assert.equal(answer.body.error, 'unauthorized');
      }
    }
    // A borrower's own access token is no service credential either.
    const demo = await demoAccessToken(url);
    assert.equal((await call(url, 'GET', operatorEndpoints.borrowers.path, demo)).status, 403);
    assert.equal(await borrowerNamed('nobody@example.com'), undefined);
    const untouched = await server.server.db
      .selectFrom('loan')
      .select('status')
      .where('reference', '=', 'LN-DEMO-1')
      .executeTakeFirstOrThrow();
    assert.equal(untouched.status, 'ACTIVE');
  });

  it('adds a loan for a new address; its first sign-in takes the borrower over and sees it', async () => {
    const email = 'new.borrower@example.com';
    const { status, body } = await addLoan(url, activeLoan('LN-NEW-1', email));
    assert.equal(status, 201, JSON.stringify(body));
    const added = OperatorLoanSchema.parse(body);
    assert.deepEqual(
      { ...added, id: undefined },
      { ...activeLoan('LN-NEW-1', email), id: undefined, documents: 5, warnings: [] },
    );

    const waiting = await borrowerNamed(email);
    assert.ok(waiting);
    assert.deepEqual(
      { state: waiting.state, loans: waiting.loans, firstName: waiting.firstName },
      { state: 'not_registered', loans: 1, firstName: null },
    );

    const token = await newBorrowerSignedInThroughIdp(server, email);
    const registered = await borrowerNamed(email);
    assert.equal(registered?.id, waiting.id, 'the same borrower, not a new one');
    assert.equal(registered?.state, 'registered');
    assert.equal(registered?.firstName, 'Otto');

    const mine = LoanListSchema.parse((await call(url, 'GET', loanEndpoints.loans.path, token)).body).loans;
    assert.deepEqual(
      mine.map((l) => [l.id, l.reference, l.status]),
      [[added.id, 'LN-NEW-1', 'ACTIVE']],
    );
    const detail = LoanDetailSchema.parse(
      (await call(url, 'GET', loanEndpoints.loan.href({ loanId: added.id }), token)).body,
    );
    assert.equal(detail.documents.length, 5);
    assert.match(detail.documents[0]!.body, /\$125,000\.00/);
  });

  it('adds a loan for a borrower who is there already, signed in or not', async () => {
    const { status, body } = await addLoan(url, {
      ...activeLoan('LN-DEMO-EXTRA', 'Demo@Example.com'),
      status: 'PAID',
      balanceCents: 0,
      nextPayment: null,
    });
    assert.equal(status, 201, JSON.stringify(body));
    assert.equal(body.documents, 5, 'a loan added paid off has its closing documents too');
    const demo = await borrowerNamed('demo@example.com');
    assert.equal(demo?.state, 'registered');
    assert.equal(demo?.loans, 6, 'five seeded (HIDDEN counted) and this one');
    assert.equal((await borrowers()).filter((b) => b.email.toLowerCase() === 'demo@example.com').length, 1);
  });

  it('refuses a reference that exists, and creates no borrower for it', async () => {
    const answer = await addLoan(url, activeLoan('LN-DEMO-1', 'someone.else@example.com'));
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.equal(answer.body.error, 'reference_taken');
    assert.match(String(answer.body.message), /LN-DEMO-1 exists already/);
    assert.equal(await borrowerNamed('someone.else@example.com'), undefined);
  });

  it('changes only the terms given', async () => {
    const original = OperatorLoanSchema.parse(
      (await addLoan(url, activeLoan('LN-UPD-1', 'updates@example.com'))).body,
    );
    const balance = await update('LN-UPD-1', { balanceCents: 11_000_050 });
    assert.equal(balance.status, 200, JSON.stringify(balance.body));
    assert.deepEqual(OperatorLoanSchema.parse(balance.body), { ...original, balanceCents: 11_000_050 });

    const paid = OperatorLoanSchema.parse(
      (await update('LN-UPD-1', { status: 'PAID', balanceCents: 0, nextPayment: null })).body,
    );
    assert.deepEqual(
      [paid.status, paid.balanceCents, paid.nextPayment, paid.amountCents, paid.product],
      ['PAID', 0, null, 12_500_000, 'Term loan'],
    );
    const due = OperatorLoanSchema.parse(
      (
        await update('LN-UPD-1', {
          status: 'PAST DUE',
          balanceCents: 5_000,
          nextPayment: { dueOn: '2030-02-28', amountCents: 99 },
        })
      ).body,
    );
    assert.deepEqual(due.nextPayment, { dueOn: '2030-02-28', amountCents: 99 });
  });

  it('refuses terms that contradict each other, added or changed, and changes nothing then', async () => {
    const contradictions: Array<[Partial<AddLoanRequest>, RegExp]> = [
      [{ balanceCents: 12_500_001 }, /balance must not be more than the amount lent/],
      [{ status: 'PAID' }, /a PAID loan has no balance left.*a PAID loan has no next payment/],
      [{ status: 'CLOSED LOST', balanceCents: 0 }, /a CLOSED LOST loan has no next payment/],
      [{ balanceCents: 0 }, /an ACTIVE loan has a balance: a loan paid off is PAID/],
      [{ nextPayment: { dueOn: '2031-03-01', amountCents: 0 } }, /the next payment must be more than zero/],
      [{ balanceCents: 100 }, /the next payment must not be more than the balance/],
    ];
    for (const [terms, message] of contradictions) {
      const added = await addLoan(url, { ...activeLoan('LN-BAD-1', 'contradicts@example.com'), ...terms });
      badRequest(added, message);
    }
    assert.equal(await borrowerNamed('contradicts@example.com'), undefined);

    const original = OperatorLoanSchema.parse(
      (await addLoan(url, activeLoan('LN-BAD-2', 'contradicts@example.com'))).body,
    );
    const refused = await update('LN-BAD-2', { status: 'PAID' });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.error, 'contradictory_terms');
    assert.match(
      String(refused.body.message),
      /would contradict each other: a PAID loan has no balance left: give a balance of 0; a PAID loan has no next payment: leave it out\./,
    );
    const kept = await update('LN-BAD-2', { product: 'Term loan' });
    assert.deepEqual(OperatorLoanSchema.parse(kept.body), original);
  });

  it('warns of what the borrower would see amiss: past due with nothing missed, a missed one while active', async () => {
    const warned = OperatorLoanSchema.parse(
      (
        await addLoan(url, {
          ...activeLoan('LN-WARN-1', 'warned@example.com'),
          status: 'PAST DUE',
          nextPayment: { dueOn: '2020-01-15', amountCents: 90_000 },
        })
      ).body,
    );
    assert.deepEqual(warned.warnings, [
      'The borrower sees this loan as past due, but not what is owed or since when: record the missed instalments (record-instalment).',
      "The next payment's date (2020-01-15) has passed: give the next payment to come (a missed one shows as past due).",
    ]);
    const missed = await call(
      url,
      'POST',
      operatorEndpoints.loanInstalments.href({ reference: 'LN-WARN-1' }),
      OPERATOR_SECRET,
      { dueOn: '2020-01-15', amountCents: 90_000 },
    );
    assert.equal(missed.status, 200, JSON.stringify(missed.body));
    const active = OperatorLoanSchema.parse(
      (
        await update('LN-WARN-1', {
          status: 'ACTIVE',
          nextPayment: { dueOn: '2031-02-15', amountCents: 90_000 },
        })
      ).body,
    );
    assert.deepEqual(active.warnings, [
      'An instalment due 2020-01-15 is unpaid, so the borrower sees a payment past due: set the status to PAST DUE, or record the payment.',
    ]);
    const behind = OperatorLoanSchema.parse((await update('LN-WARN-1', { status: 'PAST DUE' })).body);
    assert.deepEqual(behind.warnings, []);
  });

  it("rewrites an active loan's documents with its new terms until its checkout starts", async () => {
    const email = 'documents@example.com';
    const added = OperatorLoanSchema.parse((await addLoan(url, activeLoan('LN-DOC-1', email))).body);
    const token = await newBorrowerToken(server, email);
    const read = async () =>
      LoanDetailSchema.parse(
        (await call(url, 'GET', loanEndpoints.loan.href({ loanId: added.id }), token)).body,
      );
    await update('LN-DOC-1', { amountCents: 9_000_000, balanceCents: 9_000_000 });
    assert.match((await read()).documents[0]!.body, /\$90,000\.00/);

    const started = await call(url, 'POST', loanEndpoints.startCheckout.href({ loanId: added.id }), token);
    assert.equal(started.status, 200);
    const signedUp = await read();
    await update('LN-DOC-1', { amountCents: 1_000_000 });
    assert.deepEqual((await read()).documents, signedUp.documents, 'what the borrower signs stays as it is');
  });

  it('answers an unknown reference with 404', async () => {
    const answer = await update('LN-NO-SUCH-LOAN', { status: 'PAID' });
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error, 'not_found');
    assert.equal(answer.body.message, 'No loan has the reference LN-NO-SUCH-LOAN.');
  });

  it('answers bad input with 400 and a message naming the field', async () => {
    const loan = activeLoan('LN-BAD-1', 'bad.input@example.com');
    const cases: Array<[unknown, RegExp]> = [
      [{ ...loan, amountCents: -1 }, /amountCents: must not be negative/],
      [{ ...loan, amountCents: 10.5 }, /amountCents: must be whole cents/],
      [{ ...loan, balanceCents: '100' }, /balanceCents: must be an amount in cents/],
      [{ ...loan, borrowerEmail: 'not-an-address' }, /borrowerEmail: Invalid email address/],
      [{ ...loan, borrowerEmail: undefined }, /borrowerEmail/],
      [{ ...loan, reference: 'ln-1' }, /reference must be 3-32 capital letters/],
      [{ ...loan, status: 'OPEN' }, /status/],
      [{ ...loan, product: ' ' }, /product is required/],
      [
        { ...loan, nextPayment: { dueOn: '03/01/2031', amountCents: 1 } },
        /nextPayment.dueOn: must be a date/,
      ],
      [
        { ...loan, nextPayment: { dueOn: '2031-02-30', amountCents: 1 } },
        /nextPayment.dueOn: must be a date/,
      ],
      [{ ...loan, nextPayment: undefined }, /nextPayment/],
      ['a loan', /./],
    ];
    for (const [body, message] of cases)
      badRequest(await call(url, 'POST', operatorEndpoints.loans.path, OPERATOR_SECRET, body), message);
    assert.equal(await borrowerNamed('bad.input@example.com'), undefined);

    badRequest(await update('LN-DEMO-2', {}), /Give at least one term to change/);
    badRequest(await update('LN-DEMO-2', { status: 'paid' }), /status/);
    badRequest(
      await update('LN-DEMO-2', { nextPayment: { dueOn: '2031-01-01' } }),
      /nextPayment.amountCents/,
    );
    badRequest(await update('not a reference', { status: 'PAID' }), /reference must be/);
  });

  it('lists borrowers: registered, invited (an invitation is out), or not registered', async () => {
    const emails = ['invited@example.com', 'expired@example.com', 'consumed@example.com'];
    for (const [i, email] of emails.entries())
      await addLoan(url, { ...activeLoan(`LN-STATE-${i}`, email), status: 'HIDDEN', nextPayment: null });
    const ids = new Map((await borrowers()).map((b) => [b.email, b.id]));
    const invitation = (email: string, expiresAt: unknown, consumedAt: unknown = null) => ({
      id: randomUUID(),
      token_hash: randomUUID(),
      borrower_id: ids.get(email)!,
      invited_by: 'operator',
      expires_at: expiresAt as Date,
      consumed_at: consumedAt as Date | null,
    });
    await server.server.db
      .insertInto('invitation')
      .values([
        invitation('invited@example.com', sql`now() + interval '7 days'`),
        invitation('expired@example.com', sql`now() - interval '1 minute'`),
        invitation('consumed@example.com', sql`now() + interval '7 days'`, sql`now()`),
      ])
      .execute();

    const list = await borrowers();
    const stateOf = (email: string) => list.find((b) => b.email === email)?.state;
    assert.equal(stateOf('invited@example.com'), 'invited');
    assert.equal(stateOf('expired@example.com'), 'not_registered');
    assert.equal(stateOf('consumed@example.com'), 'not_registered');
    assert.equal(stateOf('demo@example.com'), 'registered');
    assert.ok(list.every((b) => !Number.isNaN(Date.parse(b.createdAt))));
    assert.equal(list.find((b) => b.email === 'invited@example.com')?.loans, 1);
  });

  it('describes the calls in the API description', async () => {
    const docs = (await (await fetch(`${url}/api/docs`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    for (const [path, method] of [
      ['/api/operator/loans', 'post'],
      ['/api/operator/loans/{reference}', 'patch'],
      ['/api/operator/borrowers', 'get'],
    ] as const)
      assert.deepEqual(docs.paths[path]?.[method]?.tags, ['operators'], path);
  });

  it('lets the token of a borrower signed in by password see only their own loans', async () => {
    // The demo borrower, signed in the ordinary way, sees the loan added for them above.
    const token = await accessTokenOf(url, 'demo@example.com', 'Demo-Borrower-1');
    const mine = LoanListSchema.parse((await call(url, 'GET', loanEndpoints.loans.path, token)).body).loans;
    assert.ok(mine.some((l) => l.reference === 'LN-DEMO-EXTRA'));
    assert.ok(mine.every((l) => l.reference.startsWith('LN-DEMO')));
  });
});
