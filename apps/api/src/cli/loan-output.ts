import type { OperatorLoan } from '@customer-core/contracts';
import { dollarsOf } from './money.js';

/** A loan as an operator reads it after adding or changing it, with what the borrower would see amiss. */
export function describeLoan(loan: OperatorLoan): string[] {
  const documents =
    loan.documents === 0 ? 'none' : `${loan.documents} (the borrower reviews and signs them at checkout)`;
  return [
    `  Borrower:      ${loan.borrowerEmail}`,
    `  Product:       ${loan.product}`,
    `  Status:        ${loan.status}`,
    `  Amount:        ${dollarsOf(loan.amountCents)}`,
    `  Balance:       ${dollarsOf(loan.balanceCents)}`,
    `  Next payment:  ${loan.nextPayment ? `${dollarsOf(loan.nextPayment.amountCents)} due ${loan.nextPayment.dueOn}` : 'none'}`,
    `  Documents:     ${documents}`,
    ...loan.warnings.map((warning) => `Warning: ${warning}`),
  ];
}
