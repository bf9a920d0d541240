import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

// A settled payment posted to the loan book, and a late return taking it back off: the balance, the
// instalments it paid in full (oldest first), the loan's status and its next payment. The loan's row
// is locked, so postings to one loan happen one after the other.

interface Posted {
  id: string;
  loanId: string;
  amountCents: number;
  /** The day the money moved: what a paid instalment's paid_on says. */
  paidOn: string;
}

async function lockedLoan(trx: Kysely<ApiDatabase>, loanId: string) {
  return trx
    .selectFrom('loan')
    .select(['status', 'balance_cents', 'amount_cents'])
    .where('id', '=', loanId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

const unpaidInstalments = (trx: Kysely<ApiDatabase>, loanId: string) =>
  trx
    .selectFrom('loan_instalment')
    .select([sql<string>`due_on::text`.as('due_on'), 'amount_cents'])
    .where('loan_id', '=', loanId)
    .where('paid_on', 'is', null)
    .orderBy('due_on')
    .execute();

/** The loan's status and next payment as its balance and unpaid instalments now say, as of `today`. */
async function restate(
  trx: Kysely<ApiDatabase>,
  loanId: string,
  balance: number,
  status: string,
  today: string,
) {
  const unpaid = await unpaidInstalments(trx, loanId);
  const late = unpaid.some((i) => i.due_on < today);
  const next = unpaid.find((i) => i.due_on >= today);
  const open = status === 'ACTIVE' || status === 'PAST DUE' || status === 'PAID';
  const nextStatus = !open ? status : balance === 0 ? 'PAID' : late ? 'PAST DUE' : 'ACTIVE';
  await trx
    .updateTable('loan')
    .set({
      balance_cents: balance,
      status: nextStatus as 'ACTIVE',
      updated_at: new Date(),
      // A loan without a recorded schedule keeps the next payment operators gave it.
      ...(balance === 0
        ? { next_payment_due: null, next_payment_cents: null }
        : next
          ? {
              next_payment_due: next.due_on,
              next_payment_cents: Math.min(Number(next.amount_cents), balance),
            }
          : {}),
    })
    .where('id', '=', loanId)
    .execute();
}

export async function postPayment(trx: Kysely<ApiDatabase>, payment: Posted, today: string): Promise<void> {
  const loan = await lockedLoan(trx, payment.loanId);
  let left = payment.amountCents;
  for (const instalment of await unpaidInstalments(trx, payment.loanId)) {
    const owed = Number(instalment.amount_cents);
    if (left < owed) break;
    left -= owed;
    await trx
      .updateTable('loan_instalment')
      .set({ paid_on: payment.paidOn, paid_by_payment: payment.id })
      .where('loan_id', '=', payment.loanId)
      .where(sql<boolean>`due_on = ${instalment.due_on}::date`)
      .execute();
  }
  const balance = Math.max(0, Number(loan.balance_cents) - payment.amountCents);
  await restate(trx, payment.loanId, balance, loan.status, today);
}

/** A settled payment returned: its instalments unpaid again, its amount owed again. */
export async function unpostPayment(trx: Kysely<ApiDatabase>, payment: Posted, today: string): Promise<void> {
  const loan = await lockedLoan(trx, payment.loanId);
  await trx
    .updateTable('loan_instalment')
    .set({ paid_on: null, paid_by_payment: null })
    .where('paid_by_payment', '=', payment.id)
    .execute();
  const balance = Math.min(Number(loan.amount_cents), Number(loan.balance_cents) + payment.amountCents);
  await restate(trx, payment.loanId, balance, loan.status, today);
}
