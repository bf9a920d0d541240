import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import {
  ESIGN_CONSENT,
  EsignConsentSchema,
  LoanDetailSchema,
  LoanListSchema,
  signingEndpoints,
  type LoanDetail,
  type LoanDocument,
  loanEndpoints,
} from '@customer-core/contracts';
import { borrowerRepository } from '../src/borrowers/borrower-repository.js';
import { demoLoans, seedDemoBorrower, type DemoLoan } from '../src/loans/demo-borrower.js';
import { loanRepository } from '../src/loans/loan-repository.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import {
  activeLoan,
  addLoan,
  call,
  giveEsignConsent,
  newBorrowerToken,
  OPERATOR_ENV,
} from './support/loans.js';
import { demoAccessToken } from './support/session.js';

const UNKNOWN_ID = '7d0c2a9e-4a51-4c5e-9a0b-2f6f3c1d8e42';
const SIGNATURE = { signatureName: 'Dana Demo', agreed: true };
const OTHERS_SIGNATURE = { signatureName: 'Otto Other', agreed: true };

describe('borrower loans and checkout', () => {
  let server: TestServer;
  let url: string;
  let demo: string;
  let other: string;
  /** The demo borrower's loan ids by reference (HIDDEN included), from the database. */
  const demoLoanIds = new Map<string, string>();
  /**
   * The demo loans as the server could have seeded them, as it started: from the day it began or the
   * day it was ready (the same day but across midnight, when their dates are a day apart).
   */
  let asSeeded: DemoLoan[][];

  before(async () => {
    const starting = new Date();
    server = await startTestServer('pglite', OPERATOR_ENV);
    asSeeded = [demoLoans(starting), demoLoans()];
    url = server.baseUrl;
    demo = await demoAccessToken(url);
    other = await newBorrowerToken(server, 'otto.other@example.com');
    await giveEsignConsent(url, other);
    const rows = await server.server.db
      .selectFrom('loan')
      .select(['id', 'reference'])
      .where('reference', 'like', 'LN-DEMO-%')
      .execute();
    for (const row of rows) demoLoanIds.set(row.reference, row.id);
  });
  after(() => server?.close());

  const idOf = (reference: string) => {
    const id = demoLoanIds.get(reference);
    assert.ok(id, `${reference} was seeded`);
    return id;
  };
  const loans = (token?: string) => call(url, 'GET', loanEndpoints.loans.path, token);
  const loan = (token: string | undefined, loanId: string) =>
    call(url, 'GET', loanEndpoints.loan.href({ loanId }), token);
  const start = (token: string | undefined, loanId: string) =>
    call(url, 'POST', loanEndpoints.startCheckout.href({ loanId }), token);
  const review = (token: string | undefined, loanId: string, documentId: string) =>
    call(url, 'POST', loanEndpoints.reviewDocument.href({ loanId, documentId }), token);
  const sign = (token: string | undefined, loanId: string, documentId: string, body: unknown = SIGNATURE) =>
    call(url, 'POST', loanEndpoints.signDocument.href({ loanId, documentId }), token, body);

  /** An answer that must be a loan with its documents. */
  const detailOf = (answer: { status: number; body: unknown }): LoanDetail => {
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return LoanDetailSchema.parse(answer.body);
  };
  const refused = (
    answer: { status: number; body: Record<string, unknown> },
    status: number,
    error: string,
  ) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.body.error, error);
    assert.equal(typeof answer.body.message, 'string');
  };

  it('seeds the demo borrower with one loan in each status, each with its documents', async () => {
    assert.deepEqual(
      [...demoLoanIds.keys()].sort(),
      demoLoans().map((l) => l.reference),
    );
    // Seeding again, even twice at once (two instances starting together), changes nothing.
    const idp = server.server.identityProvider!;
    const options = { issuer: server.config.bundledIdp!.issuer, lender: server.config.lender };
    await Promise.all([
      seedDemoBorrower(
        idp,
        { borrowers: borrowerRepository(server.server.db), loans: loanRepository(server.server.db) },
        options,
      ),
      seedDemoBorrower(
        idp,
        { borrowers: borrowerRepository(server.server.db), loans: loanRepository(server.server.db) },
        options,
      ),
    ]);
    const counts = await server.server.db
      .selectFrom('loan')
      .leftJoin('loan_document', 'loan_document.loan_id', 'loan.id')
      .select(['loan.reference', (eb) => eb.fn.count<number>('loan_document.id').as('documents')])
      .where('loan.reference', 'like', 'LN-DEMO-%')
      .groupBy('loan.reference')
      .orderBy('loan.reference')
      .execute();
    assert.deepEqual(
      counts.map((c) => [c.reference, Number(c.documents)]),
      demoLoans().map((l) => [l.reference, 5]),
    );
  });

  it("lists the borrower's loans: open ones first, then paid and lost, never a HIDDEN one", async () => {
    const { status, body } = await loans(demo);
    assert.equal(status, 200);
    const list = LoanListSchema.parse(body).loans;
    assert.deepEqual(
      list.map((l) => [l.reference, l.status]),
      [
        ['LN-DEMO-1', 'ACTIVE'],
        ['LN-DEMO-2', 'PAST DUE'],
        ['LN-DEMO-3', 'PAID'],
        ['LN-DEMO-4', 'CLOSED LOST'],
      ],
    );
    for (const summary of list) {
      const seededAs = asSeeded.map((loans) => loans.find((l) => l.reference === summary.reference)!);
      const seeded = seededAs[0]!;
      assert.equal(summary.id, idOf(seeded.reference));
      assert.equal(summary.product, seeded.product);
      assert.equal(summary.amountCents, seeded.amountCents);
      assert.equal(summary.balanceCents, seeded.balanceCents);
      // A due date is a calendar day, the same whatever the time zone.
      assert.ok(
        seededAs.some((l) => isDeepStrictEqual(summary.nextPayment, l.nextPayment)),
        `${summary.reference}: next payment ${JSON.stringify(summary.nextPayment)}, seeded ${JSON.stringify(seededAs.map((l) => l.nextPayment))}`,
      );
    }
    assert.equal(list[2]!.nextPayment, null);
    assert.equal(list[3]!.nextPayment, null);
  });

  it('lists a newer open loan first within its group', async () => {
    const added = await addLoan(url, {
      ...activeLoan('LN-DEMO-NEWER', 'demo@example.com'),
      status: 'PAST DUE',
      nextPayment: null,
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const list = LoanListSchema.parse((await loans(demo)).body).loans;
    assert.deepEqual(
      list.map((l) => l.reference),
      ['LN-DEMO-NEWER', 'LN-DEMO-1', 'LN-DEMO-2', 'LN-DEMO-3', 'LN-DEMO-4'],
    );
  });

  it('reads the active loan with its documents in order, each with a readable text', async () => {
    const active = detailOf(await loan(demo, idOf('LN-DEMO-1')));
    assert.equal(active.status, 'ACTIVE');
    assert.deepEqual(active.checkout, {
      status: 'not_started',
      startedAt: null,
      completedAt: null,
      documents: 5,
      documentsDone: 0,
    });
    assert.deepEqual(
      active.documents.map((d) => [d.title, d.requiresSignature, d.state]),
      [
        ['Loan agreement', true, 'to_review'],
        ['Promissory note', true, 'to_review'],
        ['Cost of capital disclosure', false, 'to_review'],
        ['Payment schedule', false, 'to_review'],
        ['ACH debit authorization', true, 'to_review'],
      ],
    );
    for (const document of active.documents) {
      assert.match(document.body, /LN-DEMO-1/);
      assert.ok(document.body.split('\n\n').length >= 3, `${document.title} has paragraphs`);
      assert.ok(document.description.length > 10);
    }
    assert.match(active.documents[0]!.body, /\$250,000\.00/);
    assert.match(active.documents[3]!.body, /\$10,416\.67/);
    // A paid-off loan has its documents too, as of when it was lent: the whole amount, no payment named.
    const paid = detailOf(await loan(demo, idOf('LN-DEMO-3'))).documents;
    assert.equal(paid.length, 5);
    assert.match(paid[0]!.body, /The balance outstanding on the date of this agreement is \$50,000\.00\./);
    assert.match(paid[0]!.body, /No installment is scheduled at the date of this agreement/);
  });

  it('checks out the active loan: start, review each, sign those that need it, completed', async () => {
    const loanId = idOf('LN-DEMO-1');
    const before = detailOf(await loan(demo, loanId));
    const [agreement, note, disclosure, schedule, ach] = before.documents as [
      LoanDocument,
      LoanDocument,
      LoanDocument,
      LoanDocument,
      LoanDocument,
    ];

    // Nothing before the checkout starts.
    refused(await review(demo, loanId, agreement.id), 409, 'checkout_not_started');
    refused(await sign(demo, loanId, agreement.id), 409, 'checkout_not_started');

    const started = detailOf(await start(demo, loanId));
    assert.equal(started.checkout.status, 'in_progress');
    assert.ok(started.checkout.startedAt);
    // Starting again changes nothing.
    assert.deepEqual(detailOf(await start(demo, loanId)).checkout, started.checkout);

    refused(await sign(demo, loanId, agreement.id), 409, 'not_reviewed');
    refused(await review(demo, loanId, UNKNOWN_ID), 404, 'not_found');
    refused(await sign(demo, loanId, UNKNOWN_ID), 404, 'not_found');

    const reviewed = detailOf(await review(demo, loanId, agreement.id));
    assert.equal(reviewed.documents[0]!.state, 'reviewed');
    assert.ok(reviewed.documents[0]!.reviewedAt);
    // Reviewing again changes nothing.
    assert.deepEqual(detailOf(await review(demo, loanId, agreement.id)).documents[0], reviewed.documents[0]);

    // Any text is not a signature: only the account's name, and only after the consent.
    for (const signatureName of ['x', 'Dana', 'Demo Dana', 'Otto Other', 'Dana Demonstration'])
      refused(
        await sign(demo, loanId, agreement.id, { signatureName, agreed: true }),
        400,
        'signature_name_mismatch',
      );
    const mismatch = await sign(demo, loanId, agreement.id, { signatureName: 'x', agreed: true });
    assert.equal(
      mismatch.body.message,
      'This isn\u2019t the name on your account. Type your name as it is on your account: Dana Demo.',
    );
    const noConsent = await sign(demo, loanId, agreement.id);
    refused(noConsent, 409, 'esign_consent_required');
    assert.equal(noConsent.body.message, 'Agree to sign electronically first.');
    await giveEsignConsent(url, demo);
    assert.equal(detailOf(await loan(demo, loanId)).documents[0]!.state, 'reviewed', 'nothing signed yet');

    const signed = detailOf(
      await sign(demo, loanId, agreement.id, { signatureName: '  dana   j. DEMO ', agreed: true }),
    );
    assert.equal(signed.documents[0]!.state, 'signed');
    assert.equal(signed.documents[0]!.signatureName, 'dana j. DEMO');
    assert.ok(signed.documents[0]!.signedAt);
    refused(await sign(demo, loanId, agreement.id), 409, 'already_signed');

    detailOf(await review(demo, loanId, disclosure.id));
    refused(await sign(demo, loanId, disclosure.id), 409, 'no_signature_needed');
    for (const document of [note, schedule, ach]) detailOf(await review(demo, loanId, document.id));
    detailOf(await sign(demo, loanId, note.id));
    const beforeLast = detailOf(await loan(demo, loanId));
    assert.equal(beforeLast.checkout.status, 'in_progress');
    assert.equal(beforeLast.checkout.completedAt, null);
    assert.equal(beforeLast.checkout.documentsDone, 4);

    const done = detailOf(await sign(demo, loanId, ach.id));
    assert.equal(done.checkout.status, 'completed');
    assert.ok(done.checkout.completedAt);
    assert.equal(done.checkout.documentsDone, 5);
    assert.deepEqual(
      done.documents.map((d) => d.state),
      ['signed', 'signed', 'reviewed', 'reviewed', 'signed'],
    );

    // After completion: reading, starting and reviewing answer as before; signing again is refused.
    assert.deepEqual(detailOf(await loan(demo, loanId)), done);
    assert.deepEqual(detailOf(await start(demo, loanId)), done);
    assert.deepEqual(detailOf(await review(demo, loanId, schedule.id)), done);
    refused(await sign(demo, loanId, ach.id), 409, 'already_signed');
  });

  it('completes exactly once when the last signatures arrive together', async () => {
    const added = await addLoan(url, activeLoan('LN-RACE-1', 'otto.other@example.com'));
    assert.equal(added.status, 201);
    const loanId = String(added.body.id);
    detailOf(await start(other, loanId));
    const { documents } = detailOf(await loan(other, loanId));
    for (const document of documents) detailOf(await review(other, loanId, document.id));
    const toSign = documents.filter((d) => d.requiresSignature);
    const answers = await Promise.all(toSign.map((d) => sign(other, loanId, d.id, OTHERS_SIGNATURE)));
    for (const answer of answers) detailOf(answer);
    const done = detailOf(await loan(other, loanId));
    assert.equal(done.checkout.status, 'completed');
    assert.ok(done.documents.filter((d) => d.requiresSignature).every((d) => d.state === 'signed'));
  });

  it('signs all the listed documents in one step with one signature, or none of them', async () => {
    const added = await addLoan(url, activeLoan('LN-ALL-1', 'otto.other@example.com'));
    assert.equal(added.status, 201);
    const loanId = String(added.body.id);
    const { documents } = detailOf(await start(other, loanId));
    const toSign = documents.filter((d) => d.requiresSignature).map((d) => d.id);
    const signAll = (body: unknown) =>
      call(url, 'POST', loanEndpoints.signDocuments.href({ loanId }), other, body);
    const all = { ...OTHERS_SIGNATURE, documentIds: toSign };

    // One not reviewed: none signed.
    const [first] = documents;
    detailOf(await review(other, loanId, first!.id));
    refused(await signAll(all), 409, 'not_reviewed');
    for (const document of documents) detailOf(await review(other, loanId, document.id));
    refused(await signAll({ ...all, signatureName: 'Dana Demo' }), 400, 'signature_name_mismatch');
    refused(await signAll({ ...all, documentIds: [...toSign, UNKNOWN_ID] }), 404, 'not_found');
    const noSignature = documents.find((d) => !d.requiresSignature)!.id;
    refused(await signAll({ ...all, documentIds: [...toSign, noSignature] }), 409, 'no_signature_needed');
    assert.ok(detailOf(await loan(other, loanId)).documents.every((d) => d.state === 'reviewed'));
    for (const [body, message] of [
      [{ ...all, documentIds: [] }, /Choose the documents to sign/],
      [{ ...all, documentIds: [toSign[0], toSign[0]] }, /Each document once/],
      [{ ...all, documentIds: ['not-a-uuid'] }, /documentId/],
      [{ ...all, agreed: false }, /Confirm that you have read and agree/],
    ] as const) {
      const answer = await signAll(body);
      refused(answer, 400, 'bad_request');
      assert.match(String(answer.body.message), message, JSON.stringify(body));
    }

    const done = detailOf(await signAll({ ...all, signatureName: 'OTTO  Other' }));
    assert.equal(done.checkout.status, 'completed');
    for (const document of done.documents.filter((d) => d.requiresSignature)) {
      assert.equal(document.state, 'signed');
      assert.equal(document.signatureName, 'OTTO Other');
    }
    refused(await signAll(all), 409, 'already_signed');
  });

  it('records the consent to sign electronically once, and gives it back to keep', async () => {
    const borrower = await newBorrowerToken(server, 'cora.consent@example.com');
    const consent = (token?: string) => call(url, 'GET', signingEndpoints.esignConsent.path, token);
    const give = (body: unknown, token?: string) =>
      call(url, 'POST', signingEndpoints.giveEsignConsent.path, token ?? borrower, body);
    const before = EsignConsentSchema.parse((await consent(borrower)).body);
    assert.deepEqual(before, { ...ESIGN_CONSENT, givenAt: null });
    refused(await consent(), 401, 'unauthorized');
    refused(
      await call(url, 'POST', signingEndpoints.giveEsignConsent.path, undefined, {
        ...ESIGN_CONSENT,
        agreed: true,
      }),
      401,
      'unauthorized',
    );
    refused(await give({ version: 'esign-1999', agreed: true }), 409, 'esign_consent_outdated');
    for (const body of [
      { version: ESIGN_CONSENT.version, agreed: false },
      { version: ESIGN_CONSENT.version },
      {},
    ])
      refused(await give(body), 400, 'bad_request');
    assert.equal(EsignConsentSchema.parse((await consent(borrower)).body).givenAt, null);

    const given = await give({ version: ESIGN_CONSENT.version, agreed: true });
    assert.equal(given.status, 200, JSON.stringify(given.body));
    const kept = EsignConsentSchema.parse(given.body);
    assert.ok(kept.givenAt);
    assert.equal(kept.text, ESIGN_CONSENT.text);
    // Again: the first consent stays; reading it gives the copy to keep.
    assert.deepEqual(
      EsignConsentSchema.parse((await give({ version: ESIGN_CONSENT.version, agreed: true })).body),
      kept,
    );
    assert.deepEqual(EsignConsentSchema.parse((await consent(borrower)).body), kept);
    // Another borrower's consent is theirs alone.
    assert.equal(EsignConsentSchema.parse((await consent(demo)).body).givenAt === kept.givenAt, false);
  });

  it('refuses a checkout for a loan that is not active, or has no documents', async () => {
    for (const reference of ['LN-DEMO-2', 'LN-DEMO-3', 'LN-DEMO-4']) {
      const answer = await start(demo, idOf(reference));
      refused(answer, 409, 'checkout_unavailable');
      assert.match(String(answer.body.message), /only an active loan/);
    }
    // An ACTIVE loan without documents (as an older system might have left one).
    const [borrower] = await server.server.db
      .selectFrom('borrower')
      .select('id')
      .where('email', '=', 'otto.other@example.com')
      .execute();
    const bare = await server.server.db
      .insertInto('loan')
      .values({
        borrower_id: borrower!.id,
        reference: 'LN-BARE-1',
        product: 'Term loan',
        amount_cents: 100_000,
        balance_cents: 100_000,
        status: 'ACTIVE',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    refused(await start(other, bare.id), 409, 'no_documents');
    refused(await review(other, bare.id, UNKNOWN_ID), 409, 'checkout_not_started');
  });

  it("never shows or acts on another borrower's loan: the same 404 as an unknown id", async () => {
    const unknown = await loan(other, UNKNOWN_ID);
    refused(unknown, 404, 'not_found');
    assert.equal(unknown.body.message, 'No loan of yours has that id.');

    const othersList = LoanListSchema.parse((await loans(other)).body).loans;
    assert.ok(othersList.length > 0);
    assert.ok(othersList.every((l) => !l.reference.startsWith('LN-DEMO')));

    const demoLoan = detailOf(await loan(demo, idOf('LN-DEMO-1')));
    const documentId = demoLoan.documents[0]!.id;
    for (const loanId of [idOf('LN-DEMO-1'), idOf('LN-DEMO-2')]) {
      for (const answer of [
        await loan(other, loanId),
        await start(other, loanId),
        await review(other, loanId, documentId),
        await sign(other, loanId, documentId),
      ]) {
        assert.equal(answer.status, 404);
        assert.deepEqual(answer.body, unknown.body);
      }
    }
    // Nor the other way round.
    const othersLoan = othersList[0]!;
    assert.deepEqual((await loan(demo, othersLoan.id)).body, unknown.body);
    assert.equal((await start(demo, othersLoan.id)).status, 404);
    // The demo's documents are untouched by the attempts.
    assert.deepEqual(detailOf(await loan(demo, idOf('LN-DEMO-1'))), demoLoan);
  });

  it('treats a HIDDEN loan as unknown, also to its own borrower', async () => {
    const hidden = idOf('LN-DEMO-5');
    for (const answer of [await loan(demo, hidden), await start(demo, hidden)]) {
      assert.equal(answer.status, 404);
      assert.equal(answer.body.message, 'No loan of yours has that id.');
    }
  });

  it('answers bad input with 4xx and a clear message, never 5xx', async () => {
    const loanId = idOf('LN-DEMO-1');
    const documentId = detailOf(await loan(demo, loanId)).documents[0]!.id;

    // An id that is not even well-formed names no loan or document: the unknown id's 404, not a 400.
    const unknown = await loan(demo, UNKNOWN_ID);
    for (const answer of [
      await loan(demo, 'not-a-uuid'),
      await start(demo, "1' or '1'='1"),
      await review(demo, '12345', documentId),
      await sign(demo, 'not-a-uuid', documentId, { signatureName: 'Dana Demo', agreed: true }),
    ]) {
      refused(answer, 404, 'not_found');
      assert.deepEqual(answer.body, unknown.body);
    }
    for (const answer of [
      await review(demo, loanId, '12345'),
      await sign(demo, loanId, 'not-a-uuid', { signatureName: 'Dana Demo', agreed: true }),
    ]) {
      refused(answer, 404, 'not_found');
      assert.equal(answer.body.message, 'This loan has no document with that id.');
    }
    // The token is checked first: no answer about ids without one.
    refused(await loan(undefined, 'not-a-uuid'), 401, 'unauthorized');

    const signatureCases: Array<[unknown, RegExp]> = [
      [{ agreed: true }, /signatureName/],
      [{ signatureName: '   ', agreed: true }, /Type your full name to sign/],
      [{ signatureName: 'x'.repeat(121), agreed: true }, /at most 120 characters/],
      [{ signatureName: 'Dana Demo', agreed: false }, /Confirm that you have read and agree/],
      [{ signatureName: 'Dana Demo', agreed: 'yes' }, /Confirm that you have read and agree/],
      [{ signatureName: 42, agreed: true }, /signatureName/],
      [{ signatureName: 'Dana Demo' }, /agreed/],
      [[], /./],
    ];
    for (const [body, message] of signatureCases) {
      const answer = await sign(demo, loanId, documentId, body);
      refused(answer, 400, 'bad_request');
      assert.match(String(answer.body.message), message, JSON.stringify(body));
    }
    const notJson = await fetch(`${url}${loanEndpoints.signDocument.href({ loanId, documentId })}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo}`, 'content-type': 'application/json' },
      body: '{"signatureName":',
    });
    assert.equal(notJson.status, 400);

    // Without a token, or with one that is not a token.
    const missing = await loans();
    refused(missing, 401, 'unauthorized');
    assert.match(String(missing.body.message), /Bearer access token/);
    for (const answer of [
      await loans('garbage'),
      await loan('not.a.jwt', loanId),
      await start('x'.repeat(50), loanId),
    ]) {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.error, 'malformed_token');
    }
    const forged = `${demo.slice(0, demo.lastIndexOf('.'))}.${Buffer.from('forged').toString('base64url')}`;
    refused(await loan(forged, loanId), 401, 'invalid_token');
  });

  it('describes the calls in the API description', async () => {
    const docs = (await (await fetch(`${url}/api/docs`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    for (const path of [
      '/api/borrower/loans',
      '/api/borrower/loans/{loanId}',
      '/api/borrower/loans/{loanId}/checkout',
      '/api/borrower/loans/{loanId}/documents/{documentId}/review',
      '/api/borrower/loans/{loanId}/documents/{documentId}/sign',
      '/api/borrower/loans/{loanId}/signatures',
      '/api/borrower/esign-consent',
    ]) {
      const operations = Object.values(docs.paths[path] ?? {});
      assert.ok(operations.length > 0, path);
      assert.ok(
        operations.every((op) => op.tags?.includes('borrower')),
        path,
      );
    }
  });
});
