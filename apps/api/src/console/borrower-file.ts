import type { BorrowerFile } from '@customer-core/contracts';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { BorrowerDataRepository } from '../data-rights/borrower-data-repository.js';
import type { Directory } from '../identity/directory.js';
import type { BorrowerLoans } from '../loans/borrower-loans.js';
import type { BorrowerOverview } from '../loans/borrower-overview.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One borrower as support sees them at once: their state, whether sign-in is locked, their second
 * factors (the directory's, where it holds their account), a legal hold, and their loans as the
 * borrower sees them. Undefined for an id that is no borrower's.
 */
export function borrowerFile(deps: {
  borrowers: Pick<BorrowerRepository, 'findById'>;
  borrowerOverview: BorrowerOverview;
  borrowerData: Pick<BorrowerDataRepository, 'borrowers'>;
  borrowerLoans: Pick<BorrowerLoans, 'list'>;
  directory: Pick<Directory, 'issuer' | 'isLocked' | 'listFactors'>;
}) {
  const { borrowers, borrowerOverview, borrowerData, borrowerLoans, directory } = deps;
  return async function fileOf(borrowerId: string): Promise<BorrowerFile | undefined> {
    if (!UUID.test(borrowerId)) return undefined;
    const borrower = await borrowers.findById(borrowerId);
    if (!borrower) return undefined;
    const [listed, rows, loans] = await Promise.all([
      borrowerOverview({ borrowerId }).then(([one]) => one),
      borrowerData.borrowers(borrower.email),
      borrowerLoans.list(borrowerId),
    ]);
    const hold = rows.find((row) => row.id === borrowerId);
    const userId = borrower.idpIssuer === directory.issuer ? borrower.idpSubject : null;
    const [locked, factors] = userId
      ? await Promise.all([directory.isLocked(userId), directory.listFactors(userId)])
      : [null, []];
    return {
      borrower: {
        id: borrower.id,
        email: borrower.email,
        firstName: borrower.firstName,
        lastName: borrower.lastName,
        state: listed?.state ?? 'not_registered',
        loans: listed?.loans ?? loans.length,
        createdAt: borrower.createdAt.toISOString(),
        locked,
        legalHold: hold?.legal_hold_reason != null,
        legalHoldReason: hold?.legal_hold_reason ?? null,
        legalHoldSince: hold?.legal_hold_since ? new Date(hold.legal_hold_since).toISOString() : null,
      },
      factors: factors.map((factor) => ({
        type: factor.factorType,
        status: factor.status,
        createdAt: factor.createdAt.toISOString(),
      })),
      loans,
    };
  };
}

export type BorrowerFileOf = ReturnType<typeof borrowerFile>;
