import { sql, type Kysely, type Transaction } from 'kysely';
import type { BorrowerApplicationRequest, StartApplication } from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';

/** An application as its verified address answers it. */
export interface VerifiedApplication {
  id: string;
  email: string;
  business_name: string;
}

/** What a borrower's list shows of an application. */
const APPLICATION_COLUMNS = ['id', 'business_name', 'amount_requested', 'purpose', 'created_at'] as const;
export type ApplicationRow = Awaited<ReturnType<ApplicationQueries['ofBorrower']>>[number];

/** The queries of loan applications, over the database or over one transaction. */
function applicationQueries(db: Kysely<ApiDatabase>) {
  return {
    /** Stores the application with the hash of its verification token, which works for `lifetimeHours`; its id. */
    async insert(
      application: StartApplication,
      verification: { tokenHash: string; lifetimeHours: number },
    ): Promise<string> {
      const { id } = await db
        .insertInto('loan_application')
        .values({
          business_name: application.businessName,
          contact_name: application.contactName,
          email: application.email,
          amount_requested: application.amountRequested,
          purpose: application.purpose,
          verification_token_hash: verification.tokenHash,
          verification_expires_at: sql<Date>`now() + make_interval(hours => ${verification.lifetimeHours})`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    /** Stores an application sent by a signed-in borrower, its address verified (the account's); the row. */
    insertForBorrower: (
      borrower: { id: string; email: string; contactName: string },
      application: BorrowerApplicationRequest,
    ) =>
      db
        .insertInto('loan_application')
        .values({
          borrower_id: borrower.id,
          business_name: application.businessName,
          contact_name: borrower.contactName,
          email: borrower.email,
          amount_requested: application.amountRequested,
          purpose: application.purpose,
          email_verified_at: sql<Date>`now()`,
        })
        .returning(APPLICATION_COLUMNS)
        .executeTakeFirstOrThrow(),

    /**
     * The borrower's applications, newest first: those sent signed in, and those sent signed out from
     * the account's address and verified (an unverified one proves nothing of who sent it).
     */
    ofBorrower: (borrower: { id: string; email: string }) =>
      db
        .selectFrom('loan_application')
        .select(APPLICATION_COLUMNS)
        .where((eb) =>
          eb.or([
            eb('borrower_id', '=', borrower.id),
            eb.and([
              eb(sql<string>`lower(email)`, '=', borrower.email.toLowerCase()),
              eb('email_verified_at', 'is not', null),
            ]),
          ]),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),

    /** Verifies the address of the application whose working link this is, unless it is verified already. */
    verify: (tokenHash: string): Promise<VerifiedApplication | undefined> =>
      db
        .updateTable('loan_application')
        .set({ email_verified_at: sql<Date>`now()` })
        .where('verification_token_hash', '=', tokenHash)
        .where('verification_expires_at', '>', sql<Date>`now()`)
        .where('email_verified_at', 'is', null)
        .returning(['id', 'email', 'business_name'])
        .executeTakeFirst(),

    /** The application whose working link this is (only the token's hash is kept), if already verified. */
    verifiedBefore: (tokenHash: string): Promise<VerifiedApplication | undefined> =>
      db
        .selectFrom('loan_application')
        .select(['id', 'email', 'business_name'])
        .where('verification_token_hash', '=', tokenHash)
        .where('verification_expires_at', '>', sql<Date>`now()`)
        .where('email_verified_at', 'is not', null)
        .executeTakeFirst(),
  };
}

export type ApplicationQueries = ReturnType<typeof applicationQueries>;

/** The SQL of loan applications: its queries over the database, and `transaction` to run several in one. */
export function applicationRepository(db: Kysely<ApiDatabase>) {
  return {
    ...applicationQueries(db),

    /**
     * Runs `work` in one transaction: `applications` are these queries inside it, `trx` is for the
     * request limits and the outbox to join it.
     */
    transaction: <T>(
      work: (applications: ApplicationQueries, trx: Transaction<ApiDatabase>) => Promise<T>,
    ): Promise<T> => db.transaction().execute((trx) => work(applicationQueries(trx), trx)),
  };
}

export type ApplicationRepository = ReturnType<typeof applicationRepository>;
