import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { ESIGN_CONSENT, type AddLoanRequest, type StartApplication } from '@customer-core/contracts';
import { createSecretBox, isConnectionLoss } from '@customer-core/database';
import { testDatabaseKinds } from '@customer-core/database/testing';
import {
  countOf,
  openContractDatabase,
  race,
  racersOn,
  type ContractDatabase,
} from '@customer-core/database/testing/storage-contract';
import {
  createIdentityProvider,
  idpMigrations,
  type IdentityProvider,
  type IdpDatabase,
} from '@customer-core/idp';
import { quietProviderOptions } from '@customer-core/idp/testing';
import { applicationRepository } from '../../src/applications/application-repository.js';
import { borrowerRepository } from '../../src/borrowers/borrower-repository.js';
import { apiMigrations } from '../../src/db/migrations.js';
import type { ApiDatabase } from '../../src/db/schema.js';
import { DEMO_BORROWER, demoLoans, seedDemoBorrower } from '../../src/loans/demo-borrower.js';
import { documentRepository } from '../../src/documents/document-repository.js';
import { loanBook } from '../../src/loans/loan-book.js';
import { signedPdfWriter } from '../../src/documents/borrower-documents.js';
import { loanCheckout } from '../../src/loans/loan-checkout.js';
import { loanRepository } from '../../src/loans/loan-repository.js';
import { webhookEventRepository } from '../../src/webhooks/webhook-repository.js';
import { webhookEvents } from '../../src/webhooks/webhooks.js';
import { fromNow, newBorrower } from './support.js';

// Borrowers, their loans and documents, and loan applications: what operators and borrowers write at
// once, written once.

const LENDER = {
  name: 'Main Street Funding',
  websiteUrl: 'https://lender.example',
  supportPhone: '555-0100',
};
const ISSUER = 'https://idp.example/oauth2/default';
/** A signature as a borrower signed in with a password and an authenticator code makes it. */
const SIGNATURE = {
  name: 'Ada Lovelace',
  clientAddress: '192.0.2.1',
  amr: ['pwd', 'otp', 'mfa'],
  authTime: 1_900_000_000,
};

let references = 0;
const newReference = () => `LN-${process.pid}-${(references += 1)}`;
const activeLoan = (borrowerEmail: string, reference = newReference()): AddLoanRequest => ({
  borrowerEmail,
  reference,
  product: 'Term loan',
  amountCents: 25_000_000,
  balanceCents: 24_000_000,
  status: 'ACTIVE',
  nextPayment: { dueOn: '2031-02-28', amountCents: 543_218 },
});
const identity = (email: string, subject = randomUUID()) => ({
  issuer: ISSUER,
  subject,
  email,
  firstName: 'Ada' as string | null,
  lastName: 'Lovelace' as string | null,
});

/** The repositories the demo borrower is seeded through. */
const repositoriesOf = (db: Kysely<ApiDatabase>) => ({
  borrowers: borrowerRepository(db),
  loans: loanRepository(db),
});

for (const kind of testDatabaseKinds()) {
  const racers = racersOn(kind);
  describe(`borrowers, loans and applications (${kind})`, () => {
    let database: ContractDatabase<ApiDatabase>;
    before(async () => {
      database = await openContractDatabase<ApiDatabase>(kind, { api: apiMigrations, idp: idpMigrations });
    });
    after(() => database?.close());

    // Signed PDFs written in the signing's transaction, as the portal writes them.
    const pdfsIn = signedPdfWriter(documentRepository, LENDER, { localeOf: async () => 'en-US' });
    const book = (db = database.db) => loanBook(loanRepository(db), borrowerRepository(db), LENDER);

    /** A new borrower's ACTIVE loan, its checkout started and every document reviewed. */
    async function reviewedLoan(email: string) {
      const added = await book().add(activeLoan(email));
      assert.ok(added.ok);
      const [borrower] = await borrowerRepository(database.db).findByEmail(email);
      assert.ok(borrower);
      const checkout = loanCheckout(
        loanRepository(database.db),
        webhookEvents(webhookEventRepository(database.db), () => {}),
        pdfsIn,
      );
      await checkout.start(borrower.id, added.loan.id);
      const documents = await loanRepository(database.db).documentsOf(added.loan.id);
      for (const document of documents) await checkout.review(borrower.id, added.loan.id, document.id);
      return { borrowerId: borrower.id, loanId: added.loan.id, checkout, documents };
    }
    /** The borrower an operator added gets the name its first sign-in would give it. */
    const named = (borrowerId: string) =>
      database.db
        .updateTable('borrower')
        .set({ first_name: 'Ada', last_name: 'Lovelace' })
        .where('id', '=', borrowerId)
        .execute();

    describe('borrowers', () => {
      it('an identity’s first sign-in creates its borrower; later ones follow the profile', async () => {
        const borrowers = borrowerRepository(database.db);
        const email = `first.${randomUUID()}@example.com`;
        const signedIn = identity(email);
        const created = await borrowers.upsertByIdentity(signedIn);
        assert.equal(created.email, email);
        assert.deepEqual(created.externalIds, []);
        assert.ok(created.createdAt instanceof Date);
        const renamed = await borrowers.upsertByIdentity({ ...signedIn, firstName: 'Augusta' });
        assert.equal(renamed.id, created.id);
        assert.equal(renamed.firstName, 'Augusta');
        assert.deepEqual(await borrowers.findByIdentity(ISSUER, signedIn.subject), renamed);
        assert.deepEqual(await borrowers.findById(created.id), renamed);
        assert.equal(await borrowers.findByIdentity(ISSUER, 'nobody'), undefined);
      });

      it('takes over the borrower an operator created for the address, keeping its names when the provider has none', async () => {
        const borrowers = borrowerRepository(database.db);
        const email = `invited.${randomUUID()}@example.com`;
        const operators = await borrowers.ensureByEmail({ email, firstName: 'Grace', lastName: 'Hopper' });
        assert.equal(operators.idpSubject, null);
        const signedIn = await borrowers.upsertByIdentity({
          ...identity(email.toUpperCase()),
          firstName: null,
          lastName: null,
        });
        assert.equal(signedIn.id, operators.id);
        assert.equal(signedIn.firstName, 'Grace');
        assert.deepEqual(
          (await borrowers.findByEmail(email)).map((b) => b.id),
          [operators.id],
        );
      });

      it(`of ${racers} first sign-ins of one identity at once, all get the one borrower`, async () => {
        const email = `raced.${randomUUID()}@example.com`;
        await borrowerRepository(database.db).ensureByEmail({ email, firstName: null, lastName: null });
        const signedIn = identity(email);
        const instances = [borrowerRepository(database.db), borrowerRepository(database.another())];
        const borrowers = await race(racers, (i) => instances[i % 2]!.upsertByIdentity(signedIn));
        assert.equal(new Set(borrowers.map((b) => b.id)).size, 1);
        assert.equal((await instances[0]!.findByEmail(email)).length, 1);

        const fresh = identity(`fresh.${randomUUID()}@example.com`);
        const created = await race(racers, (i) => instances[i % 2]!.upsertByIdentity(fresh));
        assert.equal(new Set(created.map((b) => b.id)).size, 1);
      });

      it(`of ${racers} operators naming one new address at once, all get the one borrower`, async () => {
        const email = `named.${randomUUID()}@example.com`;
        const instances = [borrowerRepository(database.db), borrowerRepository(database.another())];
        const borrowers = await race(racers, (i) =>
          instances[i % 2]!.ensureByEmail({ email, firstName: 'Ada', lastName: null }),
        );
        assert.equal(new Set(borrowers.map((b) => b.id)).size, 1);
      });

      it('renames only a borrower without an identity; links an identity once; follows a new address', async () => {
        const borrowers = borrowerRepository(database.db);
        const unlinked = await newBorrower(database.db, { linked: false });
        const linked = await newBorrower(database.db);
        await borrowers.renameUnlinked(unlinked.id, { firstName: 'Katherine', lastName: 'Johnson' });
        await borrowers.renameUnlinked(linked.id, { firstName: 'Not', lastName: 'Changed' });
        assert.equal((await borrowers.findById(unlinked.id))?.firstName, 'Katherine');
        assert.equal((await borrowers.findById(linked.id))?.firstName, 'Dana');

        const registered = identity(unlinked.email);
        const links = await race(racers, () => borrowers.linkIdentity(unlinked.id, registered));
        assert.equal(countOf(links, true), 1, 'linked once');
        assert.equal((await borrowers.findByIdentity(ISSUER, registered.subject))?.id, unlinked.id);

        await borrowers.changeEmail(linked.id, 'New.Address@Example.com');
        assert.equal((await borrowers.findById(linked.id))?.email, 'new.address@example.com');
      });
    });

    describe('loans', () => {
      it('adds a loan once per reference, with its standard documents and terms in numbers', async () => {
        const email = `book.${randomUUID()}@example.com`;
        const request = activeLoan(email);
        const added = await book().add(request);
        assert.ok(added.ok);
        assert.deepEqual(
          { ...added.loan, id: undefined },
          {
            id: undefined,
            reference: request.reference,
            borrowerEmail: email,
            product: 'Term loan',
            status: 'ACTIVE',
            amountCents: 25_000_000,
            balanceCents: 24_000_000,
            nextPayment: { dueOn: '2031-02-28', amountCents: 543_218 },
            documents: 5,
            warnings: [],
          },
        );
        assert.deepEqual(
          await book().add(activeLoan(`other.${randomUUID()}@example.com`, request.reference)),
          {
            ok: false,
            problem: 'reference_taken',
          },
        );
        assert.deepEqual(
          await borrowerRepository(database.db)
            .findByEmail(email)
            .then((b) => b.length),
          1,
          'the borrower made for a taken reference is rolled back',
        );
      });

      it(`of ${racers} loans added at once for one new address, each is added, all for one borrower`, async () => {
        const email = `many.${randomUUID()}@example.com`;
        const added = await race(racers, (i) =>
          book(i % 2 ? database.another() : database.db).add(activeLoan(email)),
        );
        assert.ok(added.every((outcome) => outcome.ok));
        assert.equal((await borrowerRepository(database.db).findByEmail(email)).length, 1);
        const sameReference = activeLoan(`same.${randomUUID()}@example.com`);
        const outcomes = await race(racers, () => book().add(sameReference));
        assert.equal(outcomes.filter((outcome) => outcome.ok).length, 1);
      });

      it('shows the borrower their loans open first, never a hidden one or another borrower’s', async () => {
        const loans = loanRepository(database.db);
        const { id } = await newBorrower(database.db);
        const stranger = await newBorrower(database.db);
        const ids: Record<string, string> = {};
        // Added a day apart, oldest first: PGlite's clock counts milliseconds, so loans added one after
        // another may share their time (and then go by reference).
        for (const [day, status] of (['PAID', 'ACTIVE', 'HIDDEN', 'PAST DUE'] as const).entries()) {
          ids[status] = (await loans.insert(id, { ...activeLoan(''), status, nextPayment: null }))!;
          await sql`update loan set created_at = ${new Date(Date.UTC(2026, 0, day + 1))} where id = ${ids[status]}`.execute(
            database.db,
          );
        }
        const visible = await loans.visibleLoans(id);
        assert.deepEqual(
          visible.map((loan) => loan.status),
          ['PAST DUE', 'ACTIVE', 'PAID'],
        );
        assert.equal(await loans.visibleLoan(id, ids.HIDDEN!), undefined);
        assert.equal(await loans.visibleLoan(stranger.id, ids.ACTIVE!), undefined);
        assert.equal(Number(visible[1]!.documents), 0);
        assert.equal(await loans.idOfReference(visible[1]!.reference), ids.ACTIVE);

        const updated = await loans.updateTerms(visible[1]!.reference, {
          balanceCents: 1,
          nextPayment: { dueOn: '2030-01-31', amountCents: 2 },
        });
        assert.equal(updated, ids.ACTIVE);
        const loan = await loans.visibleLoan(id, ids.ACTIVE!);
        assert.equal(Number(loan!.balance_cents), 1);
        assert.equal(loan!.next_payment_due, '2030-01-31', 'a calendar day, as stored');
        assert.equal(await loans.updateTerms('LN-NO-SUCH', { balanceCents: 1 }), undefined);

        const overview = (await loans.borrowerOverview()).find((row) => row.id === id);
        assert.equal(Number(overview!.loans), 4, 'hidden ones counted for operators');
        assert.equal(overview!.invited, false);
      });

      it('records instalments by due day, days as written whatever the time zone', async () => {
        const loans = loanRepository(database.db);
        const { id } = await newBorrower(database.db);
        const loanId = (await loans.insert(id, { ...activeLoan(''), nextPayment: null }))!;
        await loans.recordInstalment(loanId, { dueOn: '2030-03-31', amountCents: 100, paidOn: null });
        await loans.recordInstalment(loanId, { dueOn: '2030-01-31', amountCents: 100, paidOn: '2030-01-30' });
        await loans.recordInstalment(loanId, { dueOn: '2030-03-31', amountCents: 150, paidOn: '2030-04-01' });
        const instalments = await loans.instalmentsOf(loanId);
        assert.deepEqual(
          instalments.map((row) => [row.due_on, Number(row.amount_cents), row.paid_on]),
          [
            ['2030-01-31', 100, '2030-01-30'],
            ['2030-03-31', 150, '2030-04-01'],
          ],
        );
      });

      it('a checkout completes exactly once when every step of it comes at once', async () => {
        const email = `checkout.${randomUUID()}@example.com`;
        const added = await book().add(activeLoan(email));
        assert.ok(added.ok);
        const [borrower] = await borrowerRepository(database.db).findByEmail(email);
        // The lender's system that hears of each step.
        await database.db
          .insertInto('webhook_endpoint')
          .values({
            url: 'https://los.lender.example/hooks',
            event_types: ['document.reviewed', 'documents.signed', 'checkout.completed'],
            secret: 'sealed',
          })
          .execute();
        const instances = [
          loanCheckout(
            loanRepository(database.db),
            webhookEvents(webhookEventRepository(database.db), () => {}),
            pdfsIn,
          ),
          loanCheckout(
            loanRepository(database.another()),
            webhookEvents(webhookEventRepository(database.another()), () => {}),
            pdfsIn,
          ),
        ];
        const started = await race(racers, (i) => instances[i % 2]!.start(borrower!.id, added.loan.id));
        assert.ok(started.every((outcome) => outcome.ok));
        const documents = await loanRepository(database.db).documentsOf(added.loan.id);
        const reviews = await race(racers, (i) =>
          instances[i % 2]!.review(borrower!.id, added.loan.id, documents[i % documents.length]!.id),
        );
        assert.ok(reviews.every((outcome) => outcome.ok));
        const toSign = documents.filter((document) => document.requires_signature);
        await named(borrower!.id);
        await instances[0]!.giveEsignConsent(borrower!.id, ESIGN_CONSENT.version, '192.0.2.1');
        const signatures = await race(racers, (i) =>
          instances[i % 2]!.sign(borrower!.id, added.loan.id, [toSign[i % toSign.length]!.id], SIGNATURE),
        );
        assert.equal(signatures.filter((outcome) => outcome.ok).length, toSign.length, 'each signed once');
        assert.ok(
          signatures.every((outcome) => outcome.ok || outcome.problem === 'already_signed'),
          JSON.stringify(signatures.filter((outcome) => !outcome.ok)),
        );
        const completions = [...reviews, ...signatures].filter(
          (outcome) => outcome.ok && outcome.completedNow,
        );
        assert.equal(completions.length, 1);
        assert.equal(
          await loanRepository(database.db).completeCheckout(added.loan.id),
          false,
          'completed already',
        );
        const signed = await loanRepository(database.db).documentsOf(added.loan.id);
        assert.ok(
          signed.filter((d) => d.requires_signature).every((d) => d.signature_name === 'Ada Lovelace'),
        );
        // The lender's systems are told of each step once: each review, each signature, one completion.
        const told = await database.db
          .selectFrom('webhook_event')
          .select(['type', 'payload'])
          .where(sql<boolean>`payload::jsonb #>> '{data,loanId}' = ${added.loan.id}`)
          .execute();
        const count = (type: string) => told.filter((event) => event.type === type).length;
        assert.deepEqual(
          [count('document.reviewed'), count('documents.signed'), count('checkout.completed')],
          [documents.length, toSign.length, 1],
        );
      });

      it('signs with the account’s name and a consent only, and records what the certificate states', async () => {
        const email = `signer.${randomUUID()}@example.com`;
        const { borrowerId, loanId, checkout, documents } = await reviewedLoan(email);
        const ids = documents.filter((d) => d.requires_signature).map((d) => d.id);
        const sign = (name: string) => checkout.sign(borrowerId, loanId, ids, { ...SIGNATURE, name });

        // No name on the account yet (an operator added it): nothing to check a signature against.
        assert.deepEqual(await sign('Ada Lovelace'), { ok: false, problem: 'no_account_name' });
        await named(borrowerId);
        for (const name of ['x', 'Ada', 'Lovelace Ada', 'Ada Byron King Lovelace', 'Ada Lovelace-Byron'])
          assert.deepEqual(await sign(name), {
            ok: false,
            problem: 'name_mismatch',
            accountName: 'Ada Lovelace',
          });
        // The right name, but no consent to sign electronically yet.
        assert.deepEqual(await sign('Ada Lovelace'), { ok: false, problem: 'consent_required' });
        assert.equal((await checkout.esignConsent(borrowerId)).givenAt, null);
        assert.equal(await checkout.giveEsignConsent(borrowerId, 'esign-1999', '192.0.2.9'), undefined);
        const consent = await checkout.giveEsignConsent(borrowerId, ESIGN_CONSENT.version, '192.0.2.9');
        assert.ok(consent?.givenAt);
        assert.equal(consent.text, ESIGN_CONSENT.text);
        // Given again: the first consent stays.
        assert.deepEqual(
          await checkout.giveEsignConsent(borrowerId, ESIGN_CONSENT.version, '192.0.2.8'),
          consent,
        );
        assert.equal((await checkout.esignConsent(borrowerId)).givenAt, consent.givenAt);
        const nothingSigned = await loanRepository(database.db).documentsOf(loanId);
        assert.ok(
          nothingSigned.every((d) => d.signed_at === null),
          'refusals sign nothing',
        );

        // Leniently: case, spaces, a middle initial. All the documents in one step.
        const signed = await sign('  ada  q. LOVELACE ');
        assert.ok(signed.ok && signed.completedNow);
        const rows = await database.db
          .selectFrom('loan_document')
          .selectAll()
          .where('id', 'in', ids)
          .execute();
        assert.equal(rows.length, ids.length);
        for (const row of rows) {
          assert.equal(row.signature_name, 'ada q. LOVELACE');
          assert.equal(row.signer_name, 'Ada Lovelace');
          assert.equal(row.signer_email, email);
          assert.deepEqual(row.signer_amr, SIGNATURE.amr);
          assert.equal(row.signer_auth_time?.getTime(), SIGNATURE.authTime * 1000);
          assert.equal(row.esign_consent_version, ESIGN_CONSENT.version);
          assert.equal(row.esign_consent_given_at?.toISOString(), consent.givenAt);
          assert.equal(row.signed_from, SIGNATURE.clientAddress);
        }
        assert.deepEqual(await sign('Ada Lovelace'), { ok: false, problem: 'already_signed' });
      });

      if (kind === 'postgres') {
        it('a signature whose connection is lost signs nothing', async () => {
          const email = `cut.${randomUUID()}@example.com`;
          const { borrowerId, loanId, checkout, documents } = await reviewedLoan(email);
          const document = documents.find((d) => d.requires_signature)!;
          await named(borrowerId);
          await checkout.giveEsignConsent(borrowerId, ESIGN_CONSENT.version, '192.0.2.1');
          const sign = () => checkout.sign(borrowerId, loanId, [document.id], SIGNATURE);
          const error = await database.cutWhileWaiting(
            'select 1 from loan_checkout where loan_id = $1 for update',
            [loanId],
            sign,
          );
          assert.equal(isConnectionLoss(error), true, String(error));
          const [unsigned] = await documentRepository(database.db)
            .documentsOf(borrowerId)
            .then((rows) => rows.filter((row) => row.id === document.id));
          assert.equal(unsigned!.signed_at, null);
          assert.equal((await sign()).ok, true);
        });
      }
    });

    describe('documents', () => {
      it('lists the borrower’s documents loan by loan, never another borrower’s, and keeps the first signed PDF', async () => {
        const email = `documents.${randomUUID()}@example.com`;
        const added = await book().add(activeLoan(email));
        assert.ok(added.ok);
        const [borrower] = await borrowerRepository(database.db).findByEmail(email);
        const stranger = await newBorrower(database.db);
        const documents = documentRepository(database.db);
        const listed = await documents.documentsOf(borrower!.id);
        assert.equal(listed.length, 5);
        assert.ok(listed.every((row) => row.loan_id === added.loan.id));
        const [first] = listed;
        assert.equal((await documents.documentOf(borrower!.id, first!.id))?.id, first!.id);
        assert.equal(await documents.documentOf(stranger.id, first!.id), undefined);
        assert.deepEqual(await documents.documentsOf(stranger.id), []);

        const pdfs = Array.from({ length: racers }, () => randomBytes(64));
        const stored = await race(racers, (i) =>
          documentRepository(i % 2 ? database.another() : database.db).storeSignedPdf(first!.id, pdfs[i]!),
        );
        const kept = (await documents.pdfSourceOf(borrower!.id, first!.id))!.signed_pdf!;
        assert.ok(
          pdfs.some((pdf) => Buffer.from(kept).equals(pdf)),
          'one of them',
        );
        for (const bytes of stored)
          assert.ok(Buffer.from(bytes).equals(Buffer.from(kept)), 'all the very same bytes');
        assert.ok(
          Buffer.from(await documents.storeSignedPdf(first!.id, randomBytes(8))).equals(Buffer.from(kept)),
        );
      });

      it('lists the documents of a loan whatever its status, written once for one that comes in closed', async () => {
        const email = `statuses.${randomUUID()}@example.com`;
        const closed = { balanceCents: 0, nextPayment: null };
        const requests: AddLoanRequest[] = [
          { ...activeLoan(email), status: 'PAST DUE' },
          { ...activeLoan(email), ...closed, status: 'PAID' },
          { ...activeLoan(email), ...closed, status: 'CLOSED LOST' },
          { ...activeLoan(email), status: 'HIDDEN' },
        ];
        const added = [];
        for (const request of requests) {
          const outcome = await book().add(request);
          assert.ok(outcome.ok, request.status);
          assert.equal(outcome.loan.documents, 5, request.status);
          added.push(outcome.loan);
        }
        const [borrower] = await borrowerRepository(database.db).findByEmail(email);
        const listed = await documentRepository(database.db).documentsOf(borrower!.id);
        // Open first, then closed, newest first; never the HIDDEN one.
        assert.deepEqual([...new Set(listed.map((row) => row.status))], ['PAST DUE', 'CLOSED LOST', 'PAID']);
        assert.equal(listed.length, 15);
        // A change of a closed loan's terms keeps the documents it has (the same rows).
        const paid = added[1]!;
        const before = listed.filter((row) => row.loan_id === paid.id).map((row) => row.id);
        const updated = await book().update(paid.reference, { product: 'Working capital loan' });
        assert.ok(updated.ok);
        const after = (await documentRepository(database.db).documentsOf(borrower!.id))
          .filter((row) => row.loan_id === paid.id)
          .map((row) => row.id);
        assert.deepEqual(after, before);
        assert.deepEqual(
          await documentRepository(database.db).documentsOf((await newBorrower(database.db)).id),
          [],
        );
      });
    });

    describe('loan applications', () => {
      const application: StartApplication = {
        businessName: 'Lovelace Analytics',
        contactName: 'Ada Lovelace',
        email: 'ada@lovelace.example',
        amountRequested: 50_000,
        purpose: 'equipment',
      };
      const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

      it(`verifies an address once, however many open its link at once; then says it was verified`, async () => {
        const applications = applicationRepository(database.db);
        const token = randomUUID();
        const id = await applications.insert(application, { tokenHash: hashOf(token), lifetimeHours: 24 });
        const verified = await race(racers, (i) =>
          applicationRepository(i % 2 ? database.another() : database.db).verify(hashOf(token)),
        );
        assert.deepEqual(verified.filter(Boolean), [
          { id, email: application.email, business_name: application.businessName },
        ]);
        assert.deepEqual(await applications.verifiedBefore(hashOf(token)), verified.find(Boolean));
        assert.equal(await applications.verifiedBefore(hashOf('another')), undefined);
      });

      it('a link past its lifetime verifies nothing; an application in a transaction that rolls back is not kept', async () => {
        const applications = applicationRepository(database.db);
        const token = randomUUID();
        const id = await applications.insert(application, { tokenHash: hashOf(token), lifetimeHours: 24 });
        await database.db
          .updateTable('loan_application')
          .set({ verification_expires_at: fromNow(-1) })
          .where('id', '=', id)
          .execute();
        assert.equal(await applications.verify(hashOf(token)), undefined);

        const rolledBack = randomUUID();
        await assert.rejects(
          applications.transaction(async (inside) => {
            await inside.insert(application, { tokenHash: hashOf(rolledBack), lifetimeHours: 24 });
            throw new Error('the e-mail could not be enqueued');
          }),
        );
        assert.equal(await applications.verify(hashOf(rolledBack)), undefined);
      });

      it('lists a borrower’s own applications and verified ones from their address, newest first, no one else’s', async () => {
        const applications = applicationRepository(database.db);
        const borrowers = borrowerRepository(database.db);
        const email = `grace.${randomUUID()}@hopper.example`;
        const grace = await borrowers.ensureByEmail({ email, firstName: 'Grace', lastName: 'Hopper' });
        const other = await borrowers.ensureByEmail({
          email: `someone.${randomUUID()}@else.example`,
          firstName: null,
          lastName: null,
        });
        const signedOut = (address: string) => ({ ...application, email: address });
        // Sent signed out from her address, in another case, and verified: hers.
        const verifiedToken = randomUUID();
        const verifiedId = await applications.insert(signedOut(email.toUpperCase()), {
          tokenHash: hashOf(verifiedToken),
          lifetimeHours: 24,
        });
        await applications.verify(hashOf(verifiedToken));
        // A minute older than the next: PGlite's clock counts milliseconds, and rows written one after
        // another may share their time (and then go by id).
        await sql`update loan_application set created_at = created_at - interval '1 minute' where id = ${verifiedId}`.execute(
          database.db,
        );
        // Sent signed out from her address, never verified: anyone could have typed it.
        await applications.insert(signedOut(email), { tokenHash: hashOf(randomUUID()), lifetimeHours: 24 });
        const sent = await applications.insertForBorrower(
          { id: grace.id, email, contactName: 'Grace Hopper' },
          { businessName: 'Hopper Compilers', amountRequested: 75_000, purpose: 'inventory' },
        );
        await applications.insertForBorrower(
          { id: other.id, email: other.email, contactName: other.email },
          { businessName: 'Not Hers', amountRequested: 10_000, purpose: 'other' },
        );
        const stored = await database.db
          .selectFrom('loan_application')
          .selectAll()
          .where('id', '=', sent.id)
          .executeTakeFirstOrThrow();
        assert.equal(stored.borrower_id, grace.id);
        assert.equal(stored.contact_name, 'Grace Hopper');
        assert.equal(stored.verification_token_hash, null, 'nothing to verify');
        assert.ok(stored.email_verified_at, 'the account’s address, verified by its sign-in');

        const listed = await applications.ofBorrower({ id: grace.id, email });
        assert.deepEqual(
          listed.map((row) => [row.id, row.business_name]),
          [
            [sent.id, 'Hopper Compilers'],
            [verifiedId, application.businessName],
          ],
        );
        assert.deepEqual(
          (await applications.ofBorrower({ id: other.id, email: other.email })).map(
            (row) => row.business_name,
          ),
          ['Not Hers'],
        );
      });
    });

    describe('the demo borrower', () => {
      let idp: IdentityProvider;
      before(async () => {
        idp = await createIdentityProvider({
          // The portal's database holds the provider's tables too, as the embedded one's does.
          db: database.db as unknown as Kysely<IdpDatabase>,
          secrets: createSecretBox([{ id: 'test', key: randomBytes(32) }]),
          issuer: ISSUER,
          ...quietProviderOptions(),
        });
      });
      after(() => idp?.close());

      it('instances seeding at once leave one demo borrower with each loan once', async () => {
        // Each first seed hashes the demo password: a few instances, not dozens.
        await race(6, (i) =>
          seedDemoBorrower(idp, repositoriesOf(i % 2 ? database.another() : database.db), {
            issuer: ISSUER,
            lender: LENDER,
          }),
        );
        const borrowers = await borrowerRepository(database.db).findByEmail(DEMO_BORROWER.login);
        assert.equal(borrowers.length, 1);
        const loans = await loanRepository(database.db).borrowerOverview();
        const seeded = demoLoans();
        assert.equal(Number(loans.find((row) => row.id === borrowers[0]!.id)?.loans), seeded.length);
        for (const demo of seeded) {
          const loanId = (await loanRepository(database.db).idOfReference(demo.reference))!;
          assert.equal(
            await loanRepository(database.db).documentCount(loanId),
            5,
            `${demo.reference}: every loan has its documents, whatever its status`,
          );
          assert.equal(
            (await loanRepository(database.db).instalmentsOf(loanId)).length,
            demo.schedule.dueOn.length,
          );
        }
      });
    });
  });
}
