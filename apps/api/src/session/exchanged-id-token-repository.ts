import { sql, type Kysely } from 'kysely';
import {
  BORROWER_COLUMNS,
  profileOf,
  toBorrower,
  type Borrower,
  type BorrowerIdentity,
  type BorrowerRow,
} from '../borrowers/borrower-repository.js';
import type { ApiDatabase } from '../db/schema.js';
import type { IdTokenUse } from './id-token-verifier.js';

/**
 * What spending an ID token did: refused it (issued before the borrower's cut-off), found it used
 * already, or spent it, with the borrower it signs in when its identity has signed in before.
 */
export type IdTokenSpending = { kind: 'revoked' } | { kind: 'used' } | { kind: 'spent'; borrower?: Borrower };

type SpendingRow = { revoked: boolean; spent: boolean } & { [K in keyof BorrowerRow]: BorrowerRow[K] | null };

/**
 * The ID tokens already exchanged for a product session, shared by every instance through the
 * database, each kept until it expires (then the maintenance purge deletes it).
 */
export function exchangedIdTokenRepository(db: Kysely<ApiDatabase>) {
  return {
    /**
     * Marks the ID token as exchanged, unless it was issued before its borrower's cut-off (their last
     * password change, sign-out everywhere or end of their other sessions), and then writes the profile
     * it carries to the borrower its identity signed in before: what an exchange reads and writes
     * before its session begins, in one statement. So of any number of concurrent exchanges of one
     * token, on any instance, exactly one spends it; a token refused is not spent, and a token used
     * before, or refused, changes no profile.
     */
    async spend(use: IdTokenUse, identity: BorrowerIdentity): Promise<IdTokenSpending> {
      const profile = profileOf(identity);
      const byIdentity = sql`idp_issuer = ${identity.issuer} and idp_subject = ${identity.subject}`;
      // iat has whole seconds: a token of the cut-off's own second is not refused (see revocations.ts).
      const { rows } = await sql<SpendingRow>`
        with refused as (
          select 1 from borrower where ${byIdentity}
            and ${use.issuedAt}::bigint
              < floor(extract(epoch from greatest(tokens_not_before, id_tokens_not_before)))
        ),
        spent as (
          insert into exchanged_id_token (token_hash, expires_at)
          select ${use.hash}::text, ${new Date(use.acceptedUntil * 1000)}::timestamptz
          where not exists (select 1 from refused)
          on conflict (token_hash) do nothing
          returning token_hash
        ),
        known as (
          update borrower set email = ${profile.email}, first_name = ${profile.first_name},
            last_name = ${profile.last_name}, updated_at = ${profile.updated_at}
          where ${byIdentity} and exists (select 1 from spent)
          returning ${sql.join(BORROWER_COLUMNS.map((column) => sql.ref(column)))}
        )
        select exists (select 1 from refused) as revoked, exists (select 1 from spent) as spent,
          ${sql.join(BORROWER_COLUMNS.map((column) => sql.ref(`known.${column}`)))}
        from (select 1) as one left join known on true`.execute(db);
      const { revoked, spent, ...borrower } = rows[0]!;
      if (revoked) return { kind: 'revoked' };
      if (!spent) return { kind: 'used' };
      return borrower.id === null
        ? { kind: 'spent' }
        : { kind: 'spent', borrower: toBorrower(borrower as BorrowerRow) };
    },
  };
}

export type ExchangedIdTokenRepository = ReturnType<typeof exchangedIdTokenRepository>;
