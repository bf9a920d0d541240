import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

// Everything the portal holds about a borrower, read for their copy of it (a data-rights request):
// each table's rows of theirs, as they are, without what is a secret or a credential's hash.

export function borrowerDataRepository(db: Kysely<ApiDatabase>) {
  return {
    /** The borrowers with this address (one per identity provider that knew it). */
    borrowers: (email: string) =>
      db
        .selectFrom('borrower')
        .select([
          'id',
          'email',
          'first_name',
          'last_name',
          'idp_issuer',
          'idp_subject',
          'created_at',
          'updated_at',
          'legal_hold_reason',
          'legal_hold_since',
        ])
        .where(sql<boolean>`lower(email) = lower(${email})`)
        .orderBy('created_at')
        .execute(),

    async rowsOf(borrowerId: string, email: string) {
      const loans = await db
        .selectFrom('loan')
        .select([
          'id',
          'reference',
          'product',
          'status',
          'amount_cents',
          'balance_cents',
          'next_payment_due',
          'next_payment_cents',
          'created_at',
        ])
        .where('borrower_id', '=', borrowerId)
        .orderBy('created_at')
        .execute();
      const loanIds = loans.map((loan) => loan.id);
      const ofLoans = <T>(query: () => Promise<T[]>) =>
        loanIds.length === 0 ? Promise.resolve([]) : query();
      return {
        loans,
        instalments: await ofLoans(() =>
          db
            .selectFrom('loan_instalment')
            .select(['loan_id', 'due_on', 'amount_cents', 'paid_on'])
            .where('loan_id', 'in', loanIds)
            .orderBy('due_on')
            .execute(),
        ),
        documents: await ofLoans(() =>
          db
            .selectFrom('loan_document')
            .select([
              'id',
              'loan_id',
              'title',
              'requires_signature',
              'reviewed_at',
              'signed_at',
              'signature_name',
              'signed_from',
              'signed_body_sha256',
              'signer_name',
              'signer_email',
              'signer_amr',
              'signer_auth_time',
              'esign_consent_version',
              'esign_consent_given_at',
            ])
            .where('loan_id', 'in', loanIds)
            .orderBy('loan_id')
            .orderBy('position')
            .execute(),
        ),
        // Bank accounts by their last four digits only; payments and autopay with the authorizations given.
        bankAccounts: await db
          .selectFrom('bank_account')
          .select([
            'id',
            'holder_name',
            'routing_number',
            'bank_name',
            'account_type',
            'account_last4',
            'status',
            'disabled_reason',
            'created_at',
            'verified_at',
            'removed_at',
          ])
          .where('borrower_id', '=', borrowerId)
          .orderBy('created_at')
          .execute(),
        payments: await db
          .selectFrom('payment')
          .select([
            'id',
            'reference',
            'loan_id',
            'bank_account_id',
            'kind',
            'amount_cents',
            'effective_on',
            'status',
            'return_code',
            'authorization_text',
            'authorization_sha256',
            'authorized_at',
            'authorized_from',
            'created_at',
            'settled_at',
            'returned_at',
            'cancelled_at',
            'cancel_reason',
          ])
          .where('borrower_id', '=', borrowerId)
          .orderBy('created_at')
          .execute(),
        autopay: await db
          .selectFrom('autopay')
          .select([
            'loan_id',
            'bank_account_id',
            'enabled',
            'authorization_text',
            'authorization_sha256',
            'authorized_at',
            'authorized_from',
            'turned_off_at',
            'turned_off_reason',
          ])
          .where('borrower_id', '=', borrowerId)
          .execute(),
        esignConsents: await db
          .selectFrom('esign_consent')
          .select(['version', 'given_at', 'given_from'])
          .where('borrower_id', '=', borrowerId)
          .execute(),
        applications: await db
          .selectFrom('loan_application')
          .select([
            'id',
            'business_name',
            'contact_name',
            'email',
            'amount_requested',
            'purpose',
            'email_verified_at',
            'created_at',
          ])
          .where((eb) =>
            eb.or([eb('borrower_id', '=', borrowerId), eb(sql`lower(email)`, '=', email.toLowerCase())]),
          )
          .orderBy('created_at')
          .execute(),
        sessions: await db
          .selectFrom('product_session')
          .select(['sid', 'method', 'created_at', 'last_active_at', 'user_agent', 'client_network'])
          .where('borrower_id', '=', borrowerId)
          .orderBy('created_at')
          .execute(),
        securityEvents: await db
          .selectFrom('security_event')
          .select(['kind', 'occurred_at', 'method', 'ended_by', 'factor', 'user_agent', 'client_network'])
          .where('borrower_id', '=', borrowerId)
          .orderBy('occurred_at')
          .execute(),
        knownDevices: await db
          .selectFrom('known_device')
          .select(['first_seen_at', 'last_seen_at'])
          .where('borrower_id', '=', borrowerId)
          .execute(),
        // What was sent to them: never a message's text (it may hold a one-time link).
        emails: await db
          .selectFrom('mail_outbox')
          .select(['kind', 'status', 'created_at', 'sent_at'])
          .where(sql<boolean>`lower(recipient) = lower(${email})`)
          .orderBy('created_at')
          .execute(),
        auditRecords: (
          await db
            .selectFrom('audit_record')
            .select('entry')
            .where((eb) =>
              eb.or([
                eb('actor', '=', `borrower:${borrowerId}`),
                eb('target', '=', `borrower:${borrowerId}`),
                eb('target', '=', `email:${email.toLowerCase()}`),
              ]),
            )
            .orderBy('seq')
            .execute()
        ).map((row) => JSON.parse(row.entry) as unknown),
      };
    },
  };
}

export type BorrowerDataRepository = ReturnType<typeof borrowerDataRepository>;

/** What an erasure removed, and what it kept of the borrower, counted. */
export interface ErasedRows {
  sessions: number;
  securityEvents: number;
  devices: number;
  emails: number;
  applicationsErased: number;
  /** Applications younger than the retention: when each was made. */
  applicationsKept: Date[];
  loansKept: number;
  /** False: the borrower's row stays, for the loans or applications kept (unlinked from its identity). */
  borrowerDeleted: boolean;
}

/** The SQL of a borrower's data rights: the legal hold, and the erasure of what may go. */
export function erasureRepository(db: Kysely<ApiDatabase>) {
  return {
    /** Sets (a reason) or lifts (null) the legal hold of every borrower with this address; how many. */
    async setLegalHold(email: string, reason: string | null): Promise<number> {
      const result = await db
        .updateTable('borrower')
        .set({
          legal_hold_reason: reason,
          legal_hold_since: reason === null ? null : sql<Date>`coalesce(legal_hold_since, now())`,
          updated_at: sql<Date>`now()`,
        })
        .where(sql<boolean>`lower(email) = lower(${email})`)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /**
     * In one transaction, unless a legal hold was set meanwhile (then null): removes the borrower's
     * sessions, security events, devices, one-time tokens (their identity's links too), invitations
     * and e-mails, and applications
     * made before `applicationsKeptSince`; deletes the borrower if no loan and no application is kept,
     * else unlinks it from its identity. Signed documents and consents stay with the loans they belong to.
     */
    erase(
      borrower: { id: string; email: string; idpUserId: string | null },
      applicationsKeptSince: Date,
    ): Promise<ErasedRows | null> {
      const borrowerId = borrower.id;
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('borrower')
          .select('legal_hold_reason')
          .where('id', '=', borrowerId)
          .forUpdate()
          .executeTakeFirst();
        if (!row || row.legal_hold_reason !== null) return null;
        const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
        const sessions = count(
          await trx.deleteFrom('product_session').where('borrower_id', '=', borrowerId).executeTakeFirst(),
        );
        const securityEvents = count(
          await trx.deleteFrom('security_event').where('borrower_id', '=', borrowerId).executeTakeFirst(),
        );
        const devices = count(
          await trx.deleteFrom('known_device').where('borrower_id', '=', borrowerId).executeTakeFirst(),
        );
        for (const table of ['lookup_token', 'invitation', 'step_up_code'] as const)
          await trx.deleteFrom(table).where('borrower_id', '=', borrowerId).execute();
        if (borrower.idpUserId !== null)
          await trx.deleteFrom('link_token').where('idp_user_id', '=', borrower.idpUserId).execute();
        const address = borrower.email.toLowerCase();
        const emails = count(
          await trx
            .deleteFrom('mail_outbox')
            .where(sql<boolean>`lower(recipient) = ${address}`)
            .executeTakeFirst(),
        );
        await trx
          .deleteFrom('dev_mailbox_message')
          .where(sql<boolean>`lower(recipient) = ${address}`)
          .execute();
        const theirs = sql<boolean>`(borrower_id = ${borrowerId} or lower(email) = ${address})`;
        const applicationsErased = count(
          await trx
            .deleteFrom('loan_application')
            .where(theirs)
            .where('created_at', '<', applicationsKeptSince)
            .executeTakeFirst(),
        );
        const applicationsKept = (
          await trx
            .selectFrom('loan_application')
            .select('created_at')
            .where(theirs)
            .orderBy('created_at')
            .execute()
        ).map((row) => row.created_at);
        const { loans } = await trx
          .selectFrom('loan')
          .select(sql<number>`count(*)::int`.as('loans'))
          .where('borrower_id', '=', borrowerId)
          .executeTakeFirstOrThrow();
        const borrowerDeleted = loans === 0 && applicationsKept.length === 0;
        if (borrowerDeleted) await trx.deleteFrom('borrower').where('id', '=', borrowerId).execute();
        else
          await trx
            .updateTable('borrower')
            .set({ idp_issuer: null, idp_subject: null, external_ids: [], updated_at: sql<Date>`now()` })
            .where('id', '=', borrowerId)
            .execute();
        return {
          sessions,
          securityEvents,
          devices,
          emails,
          applicationsErased,
          applicationsKept,
          loansKept: loans,
          borrowerDeleted,
        };
      });
    },
  };
}

export type ErasureRepository = ReturnType<typeof erasureRepository>;
