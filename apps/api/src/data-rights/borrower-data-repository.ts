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
