import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  BorrowerDocumentSchema,
  DocumentListSchema,
  ESIGN_CONSENT,
  EsignConsentSchema,
  signingEndpoints,
  LoanDetailSchema,
  documentEndpoints,
  loanEndpoints,
} from '@customer-core/contracts';
import { extractText, getDocumentProxy } from 'unpdf';
import { startTestServer, type TestServer } from '../testing/index.js';
import {
  activeLoan,
  addLoan,
  call,
  giveEsignConsent,
  loanIdOf,
  newBorrowerToken,
  OPERATOR_ENV,
} from './support/loans.js';
import { demoSignInThroughIdp } from './support/session.js';

// The borrower's documents across their loans, whatever their status: the list, one document's text, a
// signed document's PDF with its signature certificate (stored so the same bytes come back every
// time), and the PDF of one that needs no signature. Another borrower reaches none of them.

const UNKNOWN_ID = '7d0c2a9e-4a51-4c5e-9a0b-2f6f3c1d8e42';
const SIGNER = 'Dana Q. Demo';
const CLIENT_ADDRESS = '203.0.113.77';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

describe('borrower documents and signed PDFs', () => {
  let server: TestServer;
  let url: string;
  let demo: string;
  let other: string;
  let loanId: string;

  before(async () => {
    server = await startTestServer('pglite', { ...OPERATOR_ENV, TRUST_PROXY: 'true' });
    url = server.baseUrl;
    // Signed in with the password through the identity provider: the certificate says so.
    demo = await demoSignInThroughIdp(url);
    await giveEsignConsent(url, demo);
    other = await newBorrowerToken(server, 'olga.other@example.com');
    loanId = await loanIdOf(server, 'LN-DEMO-1');
  });
  after(() => server?.close());

  const documents = (token?: string) => call(url, 'GET', documentEndpoints.documents.path, token);
  const document = (token: string | undefined, documentId: string) =>
    call(url, 'GET', documentEndpoints.document.href({ documentId }), token);
  const pdf = (token: string | undefined, documentId: string) =>
    fetch(`${url}${documentEndpoints.signedDocumentPdf.href({ documentId })}`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
  /** Any document's PDF: a signed one with its certificate, one that needs no signature without. */
  const documentPdf = (token: string | undefined, documentId: string) =>
    fetch(`${url}${documentEndpoints.documentPdf.href({ documentId })}`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
  const listOf = async (token: string) => {
    const { status, body } = await documents(token);
    assert.equal(status, 200, JSON.stringify(body));
    return DocumentListSchema.parse(body).loans;
  };
  /** Signs a document of the demo's active loan from CLIENT_ADDRESS, through the checkout calls. */
  const signThroughCheckout = async (documentId: string) => {
    assert.equal((await call(url, 'POST', loanEndpoints.startCheckout.href({ loanId }), demo)).status, 200);
    const review = await call(url, 'POST', loanEndpoints.reviewDocument.href({ loanId, documentId }), demo);
    assert.equal(review.status, 200, JSON.stringify(review.body));
    const response = await fetch(`${url}${loanEndpoints.signDocument.href({ loanId, documentId })}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${demo}`,
        'content-type': 'application/json',
        'x-forwarded-for': CLIENT_ADDRESS,
      },
      body: JSON.stringify({ signatureName: SIGNER, agreed: true }),
    });
    assert.equal(response.status, 200);
    return LoanDetailSchema.parse(await response.json());
  };

  it('needs a signed-in borrower', async () => {
    assert.equal((await documents()).status, 401);
    assert.equal((await document(undefined, UNKNOWN_ID)).status, 401);
    assert.equal((await pdf(undefined, UNKNOWN_ID)).status, 401);
    assert.equal((await documentPdf(undefined, UNKNOWN_ID)).status, 401);
  });

  it('lists every document of every loan the borrower has, whatever its status, grouped by loan', async () => {
    const added = await addLoan(url, activeLoan('LN-DOCS-2', 'demo@example.com'));
    assert.equal(added.status, 201, JSON.stringify(added.body));
    // A loan added already paid off: its documents are written all the same.
    const paid = await addLoan(url, {
      ...activeLoan('LN-DOCS-3', 'demo@example.com'),
      status: 'PAID',
      balanceCents: 0,
      nextPayment: null,
    });
    assert.equal(paid.status, 201, JSON.stringify(paid.body));
    const groups = await listOf(demo);
    // Open loans first, newest first; then closed ones. HIDDEN ones never come.
    assert.deepEqual(
      groups.map((g) => [g.loan.reference, g.loan.status]),
      [
        ['LN-DOCS-2', 'ACTIVE'],
        ['LN-DEMO-1', 'ACTIVE'],
        ['LN-DEMO-2', 'PAST DUE'],
        ['LN-DOCS-3', 'PAID'],
        ['LN-DEMO-3', 'PAID'],
        ['LN-DEMO-4', 'CLOSED LOST'],
      ],
    );
    for (const group of groups) {
      // Only a document that needs no signature has a PDF before anything is signed.
      assert.deepEqual(
        group.documents.map((d) => [d.title, d.state, d.hasSignedPdf, d.hasPdf]),
        [
          ['Loan agreement', 'to_review', false, false],
          ['Promissory note', 'to_review', false, false],
          ['Cost of capital disclosure', 'to_review', false, true],
          ['Payment schedule', 'to_review', false, true],
          ['ACH debit authorization', 'to_review', false, false],
        ],
        group.loan.reference,
      );
    }
    // A closed loan's documents are as of when it was lent: the whole amount, no payment to come.
    const closed = groups.find((g) => g.loan.reference === 'LN-DOCS-3')!;
    const agreement = BorrowerDocumentSchema.parse((await document(demo, closed.documents[0]!.id)).body);
    assert.match(agreement.body, /The balance outstanding on the date of this agreement is \$125,000\.00\./);
    // Another borrower has none of them.
    assert.deepEqual(await listOf(other), []);
  });

  it('reads one document with its text; no fingerprint before it is signed', async () => {
    const [first] = (await listOf(demo)).find((g) => g.loan.id === loanId)!.documents;
    const { status, body } = await document(demo, first!.id);
    assert.equal(status, 200, JSON.stringify(body));
    const read = BorrowerDocumentSchema.parse(body);
    assert.equal(read.title, 'Loan agreement');
    assert.equal(read.loan.reference, 'LN-DEMO-1');
    assert.match(read.body, /LN-DEMO-1/);
    assert.equal(read.fingerprint, null);
    assert.equal(read.signer, null);
  });

  it('refuses the PDF of a document not signed yet, with a clear message', async () => {
    const [first] = (await listOf(demo)).find((g) => g.loan.id === loanId)!.documents;
    const response = await pdf(demo, first!.id);
    assert.equal(response.status, 409);
    const body = (await response.json()) as { error: string; message: string };
    assert.equal(body.error, 'not_signed');
    assert.match(body.message, /not signed/);
    // Nor any PDF of it: an unsigned agreement is not a copy to keep.
    const any = await documentPdf(demo, first!.id);
    assert.equal(any.status, 409);
    assert.equal(((await any.json()) as { error: string }).error, 'not_signed');
  });

  it('serves a document that needs no signature as a PDF: no certificate; once reviewed, when', async () => {
    const closed = (await listOf(demo)).find((g) => g.loan.reference === 'LN-DEMO-3')!;
    const schedule = closed.documents.find((d) => d.title === 'Payment schedule')!;
    const response = await documentPdf(demo, schedule.id);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.equal(
      response.headers.get('content-disposition'),
      'attachment; filename="ln-demo-3-payment-schedule.pdf"',
    );
    assert.equal(response.headers.get('cache-control'), 'private, no-store');
    const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
    assert.ok(text.includes('Payment schedule — loan LN-DEMO-3'), 'the document text');
    assert.ok(!text.includes('Signature certificate'), 'no certificate');
    assert.ok(!/Reviewed on/.test(text), 'not reviewed yet');
    // Not the signed one's address: that is for signed documents only.
    assert.equal((await pdf(demo, schedule.id)).status, 409);

    // Reviewed in the checkout: the PDF says when.
    const active = (await listOf(demo)).find((g) => g.loan.id === loanId)!;
    const disclosure = active.documents.find((d) => d.title === 'Cost of capital disclosure')!;
    assert.equal((await call(url, 'POST', loanEndpoints.startCheckout.href({ loanId }), demo)).status, 200);
    const reviewed = await call(
      url,
      'POST',
      loanEndpoints.reviewDocument.href({ loanId, documentId: disclosure.id }),
      demo,
    );
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    const read = BorrowerDocumentSchema.parse((await document(demo, disclosure.id)).body);
    assert.equal(read.state, 'reviewed');
    assert.equal(read.hasPdf, true);
    const again = await documentPdf(demo, disclosure.id);
    assert.equal(again.status, 200);
    const reviewedText = await pdfText(new Uint8Array(await again.arrayBuffer()));
    assert.ok(
      reviewedText.includes(`Reviewed on ${read.reviewedAt!.slice(0, 19).replace('T', ' ')} UTC`),
      reviewedText,
    );
    assert.ok(!reviewedText.includes('Signature certificate'));
  });

  it('serves a signed document as a PDF with its certificate, the same bytes every time', async () => {
    const [agreement] = (await listOf(demo)).find((g) => g.loan.id === loanId)!.documents;
    await signThroughCheckout(agreement!.id);

    const read = BorrowerDocumentSchema.parse((await document(demo, agreement!.id)).body);
    assert.equal(read.state, 'signed');
    assert.equal(read.signatureName, SIGNER);
    assert.equal(read.hasSignedPdf, true);
    assert.equal(read.fingerprint, sha256(read.body));
    assert.deepEqual(read.signer, { name: 'Dana Demo', email: 'demo@example.com' });

    assert.equal(read.hasPdf, true);
    // Two first downloads at once, then one more, the last at the address of any document's PDF: all
    // the very same bytes.
    const [a, b] = await Promise.all([pdf(demo, agreement!.id), pdf(demo, agreement!.id)]);
    const c = await documentPdf(demo, agreement!.id);
    for (const response of [a, b, c]) {
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/pdf');
      assert.equal(
        response.headers.get('content-disposition'),
        'attachment; filename="ln-demo-1-loan-agreement-signed.pdf"',
      );
      assert.equal(response.headers.get('cache-control'), 'private, no-store');
    }
    const [bytesA, bytesB, bytesC] = await Promise.all(
      [a, b, c].map(async (r) => Buffer.from(await r.arrayBuffer())),
    );
    assert.ok(bytesA!.subarray(0, 5).toString('latin1') === '%PDF-');
    assert.ok(bytesA!.equals(bytesB!), 'two downloads are byte-identical');
    assert.ok(bytesA!.equals(bytesC!), 'a later download is byte-identical');

    const text = await pdfText(bytesA!);
    assert.match(text, /Signature certificate/);
    assert.ok(text.includes(SIGNER), 'the name as typed');
    // The account that signed, the consent it signed under and how it had signed in.
    assert.match(text, /SIGNER’S ACCOUNT NAME\s+Dana Demo/);
    assert.match(text, /SIGNER’S ACCOUNT EMAIL ADDRESS\s+demo@example\.com/);
    const consent = EsignConsentSchema.parse(
      (await call(url, 'GET', signingEndpoints.esignConsent.path, demo)).body,
    );
    assert.ok(consent.givenAt);
    assert.ok(
      text.includes(
        `Given ${consent.givenAt.slice(0, 19).replace('T', ' ')} UTC (text version ${ESIGN_CONSENT.version})`,
      ),
      'the consent to sign electronically',
    );
    assert.match(text, /SIGN-IN METHOD\s+Password \(amr: pwd\)/);
    assert.match(text, /SECOND FACTOR\s+None/);
    assert.match(text, /SIGNED IN AT\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    assert.ok(!text.includes('Not recorded'), 'every fact recorded');
    assert.ok(text.includes(CLIENT_ADDRESS), 'the client address');
    assert.ok(text.includes(sha256(read.body)), 'the fingerprint of the signed text');
    assert.ok(text.includes(read.signedAt!.slice(0, 19).replace('T', ' ')), 'the time of signing');
    assert.ok(text.includes('The Lender lends the Borrower'), 'the document text');
  });

  it('still writes the certificate of a signature made before accounts and consents were recorded', async () => {
    const [, note] = (await listOf(demo)).find((g) => g.loan.id === loanId)!.documents;
    // As a signature of then: a name typed, a time, no address, account, consent or sign-in.
    await server.server.db
      .updateTable('loan_document')
      .set({ reviewed_at: new Date(), signed_at: new Date(), signature_name: 'D. Demo' })
      .where('id', '=', note!.id)
      .execute();
    const response = await pdf(demo, note!.id);
    assert.equal(response.status, 200);
    const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
    assert.ok(text.includes('D. Demo'));
    for (const label of [
      'SIGNER’S ACCOUNT NAME',
      'SIGNER’S ACCOUNT EMAIL ADDRESS',
      'CONSENT TO SIGN ELECTRONICALLY',
      'SIGN-IN METHOD',
      'SECOND FACTOR',
      'SIGNED IN AT',
      'CLIENT ADDRESS',
    ])
      assert.match(text, new RegExp(`${label}\\s+Not recorded`), label);
  });

  it("answers 404 to another borrower for every loan, document and PDF of the demo's, and to malformed ids", async () => {
    // The probe: another borrower, signed in, asks for each of the demo's loans (every status) and
    // each of their documents, by id, at every address that takes one.
    const groups = await listOf(demo);
    assert.deepEqual(
      new Set(groups.map((g) => g.loan.status)),
      new Set(['ACTIVE', 'PAST DUE', 'PAID', 'CLOSED LOST']),
    );
    for (const { loan } of groups) {
      assert.equal((await call(url, 'GET', loanEndpoints.loan.href({ loanId: loan.id }), other)).status, 404);
    }
    const ids = groups.flatMap((g) => g.documents.map((d) => d.id));
    assert.ok(ids.length >= 30);
    for (const id of ids) {
      assert.equal((await document(other, id)).status, 404, `document ${id}`);
      assert.equal((await pdf(other, id)).status, 404, `signed PDF of ${id}`);
      const answer = await documentPdf(other, id);
      assert.equal(answer.status, 404, `PDF of ${id}`);
      assert.equal(((await answer.json()) as { error: string }).error, 'not_found');
    }
    for (const id of [UNKNOWN_ID, 'not-a-uuid', '1', "'; drop table loan_document; --"]) {
      const read = await document(demo, id);
      assert.equal(read.status, 404, id);
      assert.equal(read.body.error, 'not_found');
      assert.equal((await pdf(demo, id)).status, 404, `PDF of ${id}`);
      assert.equal((await documentPdf(demo, id)).status, 404, `any PDF of ${id}`);
    }
  });

  it("never shows a HIDDEN loan's documents", async () => {
    await server.server.db.updateTable('loan').set({ status: 'HIDDEN' }).where('id', '=', loanId).execute();
    try {
      const groups = await listOf(demo);
      assert.ok(!groups.some((g) => g.loan.id === loanId));
      const [agreement] = await server.server.db
        .selectFrom('loan_document')
        .select('id')
        .where('loan_id', '=', loanId)
        .orderBy('position')
        .execute();
      assert.equal((await document(demo, agreement!.id)).status, 404);
      assert.equal((await pdf(demo, agreement!.id)).status, 404);
      assert.equal((await documentPdf(demo, agreement!.id)).status, 404);
    } finally {
      await server.server.db.updateTable('loan').set({ status: 'ACTIVE' }).where('id', '=', loanId).execute();
    }
  });
});
