import type { BorrowerList } from '@customer-core/contracts';
import { isoOf } from './borrower-loans.js';
import type { LoanQueries } from './loan-repository.js';

/** Every borrower, for the operators' list, bound to the database. */
export type BorrowerOverview = () => Promise<BorrowerList['borrowers']>;

/**
 * Every borrower as operators see them: registered once an identity signs them in; invited while an
 * invitation is out (unused and unexpired); otherwise not registered. Loans counts HIDDEN ones too.
 */
export async function borrowerOverview(loans: LoanQueries): Promise<BorrowerList['borrowers']> {
  const rows = await loans.borrowerOverview();
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
