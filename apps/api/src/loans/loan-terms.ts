import type { LoanStatus } from '@customer-core/contracts';

// A loan's terms as both the borrower's and the operators' views read them (the columns: see
// LOAN_TERM_COLUMNS in loan-repository.ts).

interface LoanTermsRow {
  product: string;
  status: LoanStatus;
  amount_cents: string | number;
  balance_cents: string | number;
  next_payment_due: string | null;
  next_payment_cents: string | number | null;
}

/** bigint columns arrive as strings from pg and numbers from PGlite. */
export function loanTermsOf(row: LoanTermsRow) {
  return {
    product: row.product,
    status: row.status,
    amountCents: Number(row.amount_cents),
    balanceCents: Number(row.balance_cents),
    nextPayment:
      row.next_payment_due !== null && row.next_payment_cents !== null
        ? { dueOn: row.next_payment_due, amountCents: Number(row.next_payment_cents) }
        : null,
  };
}
