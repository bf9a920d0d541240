import { sql, type Kysely } from 'kysely';
import type { BorrowerList } from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';
import { isoOf } from './borrower-loans.js';

/** Every borrower, for the operators' list, bound to the database. */
export type BorrowerOverview = () => Promise<BorrowerList['borrowers']>;

/**
 * Every borrower as operators see them: registered once an identity signs them in; invited while an
 * invitation is out (unused and unexpired); otherwise not registered. Loans counts HIDDEN ones too.
 */
export async function borrowerOverview(db: Kysely<ApiDatabase>): Promise<BorrowerList['borrowers']> {
  const rows = await db
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
    .orderBy('borrower.created_at')
    .orderBy('borrower.email')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    state: row.idp_subject ? 'registered' : row.invited ? 'invited' : 'not_registered',
    loans: Number(row.loans ?? 0),
    createdAt: isoOf(row.created_at)!,
  }));
}
