import { sql, type Kysely, type Selectable } from 'kysely';
import type { ApiDatabase, BorrowerTable } from '../db/schema.js';

export interface Borrower {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  externalIds: string[];
  /** The identity that signs this borrower in; null until they first sign in or register. */
  idpIssuer: string | null;
  idpSubject: string | null;
  createdAt: Date;
}

/**
 * Whom an identity provider vouches for (a verified ID token, a user of its directory): a borrower
 * is keyed by the issuer and its subject.
 */
export interface BorrowerIdentity {
  issuer: string;
  subject: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

export interface BorrowerDetails {
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/** A borrower's columns, as read (also by a statement of another module that reads the borrower). */
export const BORROWER_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'external_ids',
  'idp_issuer',
  'idp_subject',
  'created_at',
] as const;

export type BorrowerRow = Pick<Selectable<BorrowerTable>, (typeof BORROWER_COLUMNS)[number]>;

export const toBorrower = (row: BorrowerRow): Borrower => ({
  id: row.id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  externalIds: row.external_ids,
  idpIssuer: row.idp_issuer,
  idpSubject: row.idp_subject,
  createdAt: row.created_at,
});

const columns = BORROWER_COLUMNS;

/** What a sign-in's identity writes of the borrower's profile: profile fields follow the IdP. */
export const profileOf = (identity: BorrowerIdentity) => ({
  email: identity.email,
  first_name: identity.firstName,
  last_name: identity.lastName,
  updated_at: new Date(),
});

export function borrowerRepository(db: Kysely<ApiDatabase>) {
  const byEmail = (email: string) => sql<boolean>`lower(email) = ${email.toLowerCase()}`;

  return {
    /**
     * The borrower this identity signs in. Profile fields follow the IdP. On the identity's first
     * sign-in it takes over the borrower an operator created for its e-mail address (invited, or given
     * a loan), if there is one without an identity yet; otherwise a new borrower is created.
     */
    async upsertByIdentity(identity: BorrowerIdentity): Promise<Borrower> {
      const profile = profileOf(identity);
      // Every sign-in but the first: one statement, no transaction needed.
      const known = await db
        .updateTable('borrower')
        .set(profile)
        .where('idp_issuer', '=', identity.issuer)
        .where('idp_subject', '=', identity.subject)
        .returning(columns)
        .executeTakeFirst();
      if (known) return toBorrower(known);

      return db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable('borrower')
          .set((eb) => ({
            idp_issuer: identity.issuer,
            idp_subject: identity.subject,
            email: identity.email,
            // An IdP without names keeps the names the operator gave.
            first_name: identity.firstName ?? eb.ref('first_name'),
            last_name: identity.lastName ?? eb.ref('last_name'),
            updated_at: new Date(),
          }))
          .where(byEmail(identity.email))
          .where('idp_subject', 'is', null)
          .returning(columns)
          .executeTakeFirst();
        if (claimed) return toBorrower(claimed);

        const created = await trx
          .insertInto('borrower')
          .values({ ...profile, idp_issuer: identity.issuer, idp_subject: identity.subject })
          .onConflict((oc) => oc.columns(['idp_issuer', 'idp_subject']).doUpdateSet(profile))
          .returning(columns)
          .executeTakeFirstOrThrow();
        return toBorrower(created);
      });
    },

    /** The borrower this identity signs in, if it has signed in before. */
    async findByIdentity(issuer: string, subject: string): Promise<Borrower | undefined> {
      const row = await db
        .selectFrom('borrower')
        .select(columns)
        .where('idp_issuer', '=', issuer)
        .where('idp_subject', '=', subject)
        .executeTakeFirst();
      return row && toBorrower(row);
    },

    async findById(id: string): Promise<Borrower | undefined> {
      const row = await db.selectFrom('borrower').select(columns).where('id', '=', id).executeTakeFirst();
      return row && toBorrower(row);
    },

    /** Every borrower with this e-mail address (one per identity, and at most one without). */
    async findByEmail(email: string, trx: Kysely<ApiDatabase> = db): Promise<Borrower[]> {
      const rows = await trx
        .selectFrom('borrower')
        .select(columns)
        .where(byEmail(email))
        .orderBy('created_at')
        .execute();
      return rows.map(toBorrower);
    },

    /**
     * The borrower an operator means by this e-mail address: the one already there (with or without an
     * identity), or a new one without an identity, which the address's first sign-in will take over.
     */
    async ensureByEmail(details: BorrowerDetails, trx: Kysely<ApiDatabase> = db): Promise<Borrower> {
      const [existing] = await this.findByEmail(details.email, trx);
      if (existing) return existing;
      const created = await trx
        .insertInto('borrower')
        .values({ email: details.email, first_name: details.firstName, last_name: details.lastName })
        .onConflict((oc) =>
          oc
            .expression(sql`lower(email)`)
            .where('idp_subject', 'is', null)
            .doUpdateSet({ updated_at: new Date() }),
        )
        .returning(columns)
        .executeTakeFirstOrThrow();
      return toBorrower(created);
    },

    /**
     * Names a borrower who has no identity yet (an operator inviting them); a borrower with one keeps
     * the names its identity provider gives.
     */
    async renameUnlinked(
      borrowerId: string,
      names: { firstName: string; lastName: string },
      trx: Kysely<ApiDatabase> = db,
    ): Promise<void> {
      await trx
        .updateTable('borrower')
        .set({ first_name: names.firstName, last_name: names.lastName, updated_at: new Date() })
        .where('id', '=', borrowerId)
        .where('idp_subject', 'is', null)
        .execute();
    },

    /** The borrower's new e-mail address, once their directory's sign-in name has changed to it. */
    async changeEmail(borrowerId: string, email: string, trx: Kysely<ApiDatabase> = db): Promise<void> {
      await trx
        .updateTable('borrower')
        .set({ email: email.toLowerCase(), updated_at: new Date() })
        .where('id', '=', borrowerId)
        .execute();
    },

    /** Gives a borrower without an identity the one they just registered; false if they had one already. */
    async linkIdentity(
      borrowerId: string,
      identity: BorrowerIdentity,
      trx: Kysely<ApiDatabase> = db,
    ): Promise<boolean> {
      const result = await trx
        .updateTable('borrower')
        .set({
          idp_issuer: identity.issuer,
          idp_subject: identity.subject,
          email: identity.email,
          first_name: identity.firstName,
          last_name: identity.lastName,
          updated_at: new Date(),
        })
        .where('id', '=', borrowerId)
        .where('idp_subject', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
  };
}

export type BorrowerRepository = ReturnType<typeof borrowerRepository>;
