import type { Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';
import type { VerifiedIdentity } from '../tokens/id-token-verifier.js';

export interface Borrower {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  externalIds: string[];
  idpIssuer: string;
  idpSubject: string;
}

export function borrowerRepository(db: Kysely<ApiDatabase>) {
  const columns = [
    'id',
    'email',
    'first_name',
    'last_name',
    'external_ids',
    'idp_issuer',
    'idp_subject',
  ] as const;
  const toBorrower = (row: {
    id: string;
    email: string;
    first_name: string | null;
    last_name: string | null;
    external_ids: string[];
    idp_issuer: string;
    idp_subject: string;
  }): Borrower => ({
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    externalIds: row.external_ids,
    idpIssuer: row.idp_issuer,
    idpSubject: row.idp_subject,
  });

  return {
    /** The borrower signed in by this identity, created on first sign-in; profile fields follow the IdP. */
    async upsertByIdentity(identity: VerifiedIdentity): Promise<Borrower> {
      const row = await db
        .insertInto('borrower')
        .values({
          email: identity.email,
          first_name: identity.firstName,
          last_name: identity.lastName,
          idp_issuer: identity.issuer,
          idp_subject: identity.subject,
        })
        .onConflict((oc) =>
          oc.columns(['idp_issuer', 'idp_subject']).doUpdateSet({
            email: identity.email,
            first_name: identity.firstName,
            last_name: identity.lastName,
            updated_at: new Date(),
          }),
        )
        .returning(columns)
        .executeTakeFirstOrThrow();
      return toBorrower(row);
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
  };
}

export type BorrowerRepository = ReturnType<typeof borrowerRepository>;
