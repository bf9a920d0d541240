import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { AddLoanRequest, UpdateLoanRequest } from '@customer-core/contracts';
import type { ApiDatabase, LoanTable } from '../db/schema.js';
import type { StandardDocument } from './standard-documents.js';

// The SQL of loans: the borrower's view, the operators' book, a loan's schedule and its checkout.
// Every query of the borrower's view names the borrower, so a loan id alone never reaches another
// borrower's loan, and HIDDEN loans never leave the database.

/** The loan columns of a loan's terms (see loanTermsOf), for a query that selects from `loan`. */
const LOAN_TERM_COLUMNS = [
  'loan.id',
  'loan.reference',
  'loan.product',
  'loan.status',
  'loan.amount_cents',
  'loan.balance_cents',
  // A calendar day: as text, so no time zone moves it.
  sql<string | null>`loan.next_payment_due::text`.as('next_payment_due'),
  'loan.next_payment_cents',
] as const;

/** Open loans (ACTIVE, PAST DUE) first, then closed ones; newest first within each. */
const OPEN_FIRST = sql<number>`case when loan.status in ('ACTIVE', 'PAST DUE') then 0 else 1 end`;

const nextPaymentColumns = (nextPayment: AddLoanRequest['nextPayment']) => ({
  next_payment_due: nextPayment?.dueOn ?? null,
  next_payment_cents: nextPayment?.amountCents ?? null,
});

/** What a signature certificate states, as stored with the signed document. */
export interface DocumentSignature {
  /** The name as the borrower typed it (it matched the account's name). */
  name: string;
  clientAddress: string;
  bodySha256: string;
  /** The account's name and email address at signing. */
  signerName: string;
  signerEmail: string;
  /** How the borrower signed in (the access token's amr; null: it did not say) and when. */
  amr: string[] | null;
  authTime: Date;
  consent: { version: string; givenAt: Date };
}

/** The queries of loans, over the database or over one transaction. */
function loanQueries(db: Kysely<ApiDatabase>) {
  function visibleLoans(borrowerId: string) {
    return db
      .selectFrom('loan')
      .leftJoin('loan_checkout', 'loan_checkout.loan_id', 'loan.id')
      .where('loan.borrower_id', '=', borrowerId)
      .where('loan.status', '<>', 'HIDDEN')
      .select([
        ...LOAN_TERM_COLUMNS,
        'loan_checkout.started_at',
        'loan_checkout.completed_at',
        sql<number>`(select count(*)::int from loan_document d where d.loan_id = loan.id)`.as('documents'),
        // Done: reviewed, and signed where a signature is needed.
        sql<number>`(
        select count(*)::int from loan_document d
        where d.loan_id = loan.id and d.reviewed_at is not null and (not d.requires_signature or d.signed_at is not null)
      )`.as('documents_done'),
      ]);
  }

  return {
    /** The borrower's loans, HIDDEN ones left out, open ones first. */
    visibleLoans: (borrowerId: string) =>
      visibleLoans(borrowerId)
        .orderBy(OPEN_FIRST)
        .orderBy('loan.created_at', 'desc')
        .orderBy('loan.reference')
        .execute(),

    /** One of the borrower's loans; undefined if it is not theirs, HIDDEN or unknown. */
    visibleLoan: (borrowerId: string, loanId: string) =>
      visibleLoans(borrowerId).where('loan.id', '=', loanId).executeTakeFirst(),

    /** The loan's documents, in the order the borrower goes through them. */
    documentsOf: (loanId: string) =>
      db
        .selectFrom('loan_document')
        .select([
          'id',
          'title',
          'description',
          'body',
          'requires_signature',
          'reviewed_at',
          'signed_at',
          'signature_name',
        ])
        .where('loan_id', '=', loanId)
        .orderBy('position')
        .execute(),

    /** The instalments of these loans, each loan's oldest first; days as text, as instalmentsOf. */
    instalmentsOfLoans: (loanIds: string[]) =>
      loanIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('loan_instalment')
            .select([
              'loan_id',
              sql<string>`due_on::text`.as('due_on'),
              'amount_cents',
              sql<string | null>`paid_on::text`.as('paid_on'),
            ])
            .where('loan_id', 'in', loanIds)
            .orderBy('loan_id')
            .orderBy('due_on')
            .execute(),

    /** The loan's instalments, oldest first; days as text, so no time zone moves them. */
    instalmentsOf: (loanId: string) =>
      db
        .selectFrom('loan_instalment')
        .select([
          sql<string>`due_on::text`.as('due_on'),
          'amount_cents',
          sql<string | null>`paid_on::text`.as('paid_on'),
        ])
        .where('loan_id', '=', loanId)
        .orderBy('due_on')
        .execute(),

    /** Records an instalment: a new due day, or a change to the one on that day (its amount, its payment). */
    async recordInstalment(
      loanId: string,
      instalment: { dueOn: string; amountCents: number; paidOn: string | null },
    ): Promise<void> {
      await db
        .insertInto('loan_instalment')
        .values({
          loan_id: loanId,
          due_on: instalment.dueOn,
          amount_cents: instalment.amountCents,
          paid_on: instalment.paidOn,
        })
        .onConflict((oc) =>
          oc.columns(['loan_id', 'due_on']).doUpdateSet({
            amount_cents: instalment.amountCents,
            paid_on: instalment.paidOn,
          }),
        )
        .execute();
    },

    /** Every borrower with their number of loans (HIDDEN ones too) and whether an invitation is out. */
    /** Every borrower; with `search`, at most `limit` whose name or address contains it, or a loan's reference starts with it. */
    /** Every borrower, those a search finds, or the one borrower with this id. */
    borrowerOverview: (search?: { text: string; limit: number } | { borrowerId: string }) => {
      const byId = search && 'borrowerId' in search ? search.borrowerId : undefined;
      const text = search && 'text' in search ? search : undefined;
      const like = text?.text.replace(/[\\%_]/g, (c) => `\\${c}`);
      return db
        .selectFrom('borrower')
        .select((eb) => [
          'borrower.id',
          'borrower.email',
          'borrower.first_name',
          'borrower.last_name',
          'borrower.idp_subject',
          'borrower.created_at',
          eb
            .selectFrom('loan')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('loan.borrower_id', '=', 'borrower.id')
            .as('loans'),
          eb
            .exists(
              eb
                .selectFrom('invitation')
                .select('invitation.id')
                .whereRef('invitation.borrower_id', '=', 'borrower.id')
                .where('invitation.consumed_at', 'is', null)
                .where('invitation.expires_at', '>', sql<Date>`now()`),
            )
            .as('invited'),
        ])
        .$if(like !== undefined, (query) =>
          query
            .where((eb) =>
              eb.or([
                eb(sql`borrower.email`, 'ilike', `%${like}%`),
                eb(
                  sql`coalesce(borrower.first_name, '') || ' ' || coalesce(borrower.last_name, '')`,
                  'ilike',
                  `%${like}%`,
                ),
                eb.exists(
                  eb
                    .selectFrom('loan')
                    .select('loan.id')
                    .whereRef('loan.borrower_id', '=', 'borrower.id')
                    .where(sql`loan.reference`, 'ilike', `${like}%`),
                ),
              ]),
            )
            .limit(text!.limit),
        )
        .$if(byId !== undefined, (query) => query.where('borrower.id', '=', byId!))
        .orderBy('borrower.created_at')
        .orderBy('borrower.email')
        .execute();
    },

    /** The loan as operators see it: its terms, its borrower's address and its number of documents. */
    operatorLoan: (loanId: string) =>
      db
        .selectFrom('loan')
        .innerJoin('borrower', 'borrower.id', 'loan.borrower_id')
        .select((eb) => [
          ...LOAN_TERM_COLUMNS,
          'borrower.email',
          eb
            .selectFrom('loan_document')
            .select(sql<number>`count(*)::int`.as('n'))
            .whereRef('loan_document.loan_id', '=', 'loan.id')
            .as('documents'),
        ])
        .where('loan.id', '=', loanId)
        .executeTakeFirstOrThrow(),

    /** The id of the loan with this reference, if there is one. */
    async idOfReference(reference: string): Promise<string | undefined> {
      const loan = await db
        .selectFrom('loan')
        .select('id')
        .where('reference', '=', reference)
        .executeTakeFirst();
      return loan?.id;
    },

    /** Adds the borrower's loan; its id, or undefined when another loan has its reference. */
    async insert(
      borrowerId: string,
      loan: Omit<AddLoanRequest, 'borrowerEmail'>,
    ): Promise<string | undefined> {
      const inserted = await db
        .insertInto('loan')
        .values({
          borrower_id: borrowerId,
          reference: loan.reference,
          product: loan.product,
          amount_cents: loan.amountCents,
          balance_cents: loan.balanceCents,
          status: loan.status,
          ...nextPaymentColumns(loan.nextPayment),
        })
        .onConflict((oc) => oc.column('reference').doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted?.id;
    },

    /** Adds instalments to the loan's schedule. */
    async addInstalments(
      loanId: string,
      instalments: { dueOn: string; amountCents: number; paidOn: string | null }[],
    ): Promise<void> {
      if (instalments.length === 0) return;
      await db
        .insertInto('loan_instalment')
        .values(
          instalments.map((instalment) => ({
            loan_id: loanId,
            due_on: instalment.dueOn,
            amount_cents: instalment.amountCents,
            paid_on: instalment.paidOn,
          })),
        )
        .execute();
    },

    /** Changes the terms given of the loan with this reference; its id, or undefined when there is none. */
    async updateTerms(reference: string, changes: UpdateLoanRequest): Promise<string | undefined> {
      const set: Updateable<LoanTable> = { updated_at: new Date() };
      if (changes.product !== undefined) set.product = changes.product;
      if (changes.amountCents !== undefined) set.amount_cents = changes.amountCents;
      if (changes.balanceCents !== undefined) set.balance_cents = changes.balanceCents;
      if (changes.status !== undefined) set.status = changes.status;
      if (changes.nextPayment !== undefined) Object.assign(set, nextPaymentColumns(changes.nextPayment));
      const updated = await db
        .updateTable('loan')
        .set(set)
        .where('reference', '=', reference)
        .returning('id')
        .executeTakeFirst();
      return updated?.id;
    },

    /** Whether the borrower has started the loan's checkout. */
    async checkoutStarted(loanId: string): Promise<boolean> {
      const started = await db
        .selectFrom('loan_checkout')
        .select('loan_id')
        .where('loan_id', '=', loanId)
        .executeTakeFirst();
      return started !== undefined;
    },

    /** Writes these documents in place of any the loan has, in this order. */
    async replaceDocuments(loanId: string, documents: StandardDocument[]): Promise<void> {
      await db.deleteFrom('loan_document').where('loan_id', '=', loanId).execute();
      await db
        .insertInto('loan_document')
        .values(
          documents.map((doc, position) => ({
            loan_id: loanId,
            position,
            title: doc.title,
            description: doc.description,
            body: doc.body,
            requires_signature: doc.requiresSignature,
          })),
        )
        .execute();
    },

    /** The borrower's own (not HIDDEN) loan, locked against a concurrent change of its terms or documents. */
    lockLoan: (borrowerId: string, loanId: string) =>
      db
        .selectFrom('loan')
        .select(['id', 'status'])
        .where('id', '=', loanId)
        .where('borrower_id', '=', borrowerId)
        .where('status', '<>', 'HIDDEN')
        .forUpdate()
        .executeTakeFirst(),

    /** The started checkout of the borrower's loan, locked; undefined if there is none (or no such loan). */
    lockCheckout: (borrowerId: string, loanId: string) =>
      db
        .selectFrom('loan_checkout')
        .innerJoin('loan', 'loan.id', 'loan_checkout.loan_id')
        .innerJoin('borrower', 'borrower.id', 'loan.borrower_id')
        // The signer's account as it is now: a signature is checked against, and certifies, these.
        .select([
          'loan.id',
          'loan.reference',
          'loan.status',
          'loan_checkout.completed_at',
          'borrower.first_name',
          'borrower.last_name',
          'borrower.email',
        ])
        .where('loan.id', '=', loanId)
        .where('loan.borrower_id', '=', borrowerId)
        .where('loan.status', '<>', 'HIDDEN')
        .forUpdate('loan_checkout')
        .executeTakeFirst(),

    /** How many documents the loan has. */
    async documentCount(loanId: string): Promise<number> {
      const { documents } = await db
        .selectFrom('loan_document')
        .select(sql<number>`count(*)::int`.as('documents'))
        .where('loan_id', '=', loanId)
        .executeTakeFirstOrThrow();
      return Number(documents);
    },

    /** Starts the loan's checkout; starting a started one changes nothing. */
    async startCheckout(loanId: string): Promise<void> {
      await db
        .insertInto('loan_checkout')
        .values({ loan_id: loanId })
        .onConflict((oc) => oc.column('loan_id').doNothing())
        .execute();
    },

    /** How many of the loan's documents are not done: not reviewed, or not signed where that is needed. */
    async openDocuments(loanId: string): Promise<number> {
      const { open } = await db
        .selectFrom('loan_document')
        .select(sql<number>`count(*)::int`.as('open'))
        .where('loan_id', '=', loanId)
        .where((eb) =>
          eb.or([
            eb('reviewed_at', 'is', null),
            eb.and([eb('requires_signature', '=', true), eb('signed_at', 'is', null)]),
          ]),
        )
        .executeTakeFirstOrThrow();
      return Number(open);
    },

    /** Completes the loan's checkout; true when this call completed it (not an earlier one). */
    async completeCheckout(loanId: string): Promise<boolean> {
      const completed = await db
        .updateTable('loan_checkout')
        .set({ completed_at: sql<Date>`now()` })
        .where('loan_id', '=', loanId)
        .where('completed_at', 'is', null)
        .executeTakeFirst();
      return completed.numUpdatedRows === 1n;
    },

    /** The loan's document, as reviewing it needs it. */
    documentToReview: (loanId: string, documentId: string) =>
      db
        .selectFrom('loan_document')
        .select(['id', 'reviewed_at'])
        .where('id', '=', documentId)
        .where('loan_id', '=', loanId)
        .executeTakeFirst(),

    async markReviewed(documentId: string): Promise<void> {
      await db
        .updateTable('loan_document')
        .set({ reviewed_at: sql<Date>`now()` })
        .where('id', '=', documentId)
        .execute();
    },

    /** The loan's documents with these ids, as signing them needs them (unknown ids left out). */
    documentsToSign: (loanId: string, documentIds: readonly string[]) =>
      db
        .selectFrom('loan_document')
        .select(['id', 'body', 'requires_signature', 'reviewed_at', 'signed_at'])
        .where('id', 'in', documentIds)
        .where('loan_id', '=', loanId)
        .orderBy('position')
        .execute(),

    /** Signs the document, with what its signature certificate states. */
    async sign(documentId: string, signature: DocumentSignature): Promise<void> {
      await db
        .updateTable('loan_document')
        .set({
          signed_at: sql<Date>`now()`,
          signature_name: signature.name,
          signed_from: signature.clientAddress,
          signed_body_sha256: signature.bodySha256,
          signer_name: signature.signerName,
          signer_email: signature.signerEmail,
          signer_amr: signature.amr,
          signer_auth_time: signature.authTime,
          esign_consent_version: signature.consent.version,
          esign_consent_given_at: signature.consent.givenAt,
        })
        .where('id', '=', documentId)
        .execute();
    },

    /** The borrower's consent to sign electronically of this version of its text, if they gave it. */
    esignConsentOf: (borrowerId: string, version: string) =>
      db
        .selectFrom('esign_consent')
        .select(['version', 'text', 'given_at'])
        .where('borrower_id', '=', borrowerId)
        .where('version', '=', version)
        .executeTakeFirst(),

    /** Records the borrower's consent to this version of the text; given again, the first stays. */
    async recordEsignConsent(
      borrowerId: string,
      consent: { version: string; text: string; clientAddress: string },
    ): Promise<void> {
      await db
        .insertInto('esign_consent')
        .values({
          borrower_id: borrowerId,
          version: consent.version,
          text: consent.text,
          given_from: consent.clientAddress,
        })
        .onConflict((oc) => oc.columns(['borrower_id', 'version']).doNothing())
        .execute();
    },
  };
}

export type LoanQueries = ReturnType<typeof loanQueries>;

/** A loan as its borrower's view reads it (see loanQueries.visibleLoan). */
export type VisibleLoanRow = NonNullable<Awaited<ReturnType<LoanQueries['visibleLoan']>>>;

/** The SQL of loans: its queries over the database, and `transaction` to run several in one. */
export function loanRepository(db: Kysely<ApiDatabase>) {
  return {
    ...loanQueries(db),

    /**
     * Runs `work` in one transaction: `loans` are these queries inside it, `trx` is for another
     * repository's (the borrower's) to join it.
     */
    transaction: <T>(work: (loans: LoanQueries, trx: Transaction<ApiDatabase>) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => work(loanQueries(trx), trx)),
  };
}

export type LoanRepository = ReturnType<typeof loanRepository>;
