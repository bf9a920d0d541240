import { BORROWER_SEARCH_LIMIT, type BorrowerList } from '@customer-core/contracts';
import { isoOf } from './borrower-loans.js';
import type { LoanQueries } from './loan-repository.js';

/**
 * Every borrower, those a search finds, or the one with an id (support's page of them), as the
 * operators' list shows them, bound to the database.
 */
export type BorrowerOverview = (
  search?: string | { borrowerId: string },
) => Promise<BorrowerList['borrowers']>;

/**
 * Every borrower (or those `search` finds: a name or e-mail address that contains it, a loan reference
 * that starts with it) as operators see them: registered once an identity signs them in; invited while an
 * invitation is out (unused and unexpired); otherwise not registered. Loans counts HIDDEN ones too.
 */
export async function borrowerOverview(
  loans: LoanQueries,
  search?: string | { borrowerId: string },
): Promise<BorrowerList['borrowers']> {
  const rows = await loans.borrowerOverview(
    typeof search === 'string' ? { text: search, limit: BORROWER_SEARCH_LIMIT } : search,
  );
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
