import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { ApiDatabase, AutopayTable, PaymentTable } from '../db/schema.js';

// The SQL of payments and autopay. A borrower's payments are written one at a time (their row is
// locked first), so an idempotency key, the day's limit and the loan's payoff are each checked against
// everything written before; every borrower's query names the borrower.

const PAYMENT_COLUMNS = [
  'payment.id',
  'payment.reference',
  'payment.borrower_id',
  'payment.loan_id',
  'payment.bank_account_id',
  'payment.kind',
  'payment.amount_cents',
  sql<string>`payment.effective_on::text`.as('effective_on'),
  'payment.status',
  'payment.return_code',
  'payment.created_at',
  'payment.settled_at',
  'payment.cancelled_at',
  'payment.cancel_reason',
  'payment.cancelled_by',
  'payment.trace_number',
  'payment.request_sha256',
  'bank_account.bank_name',
  'bank_account.account_last4',
  'loan.reference as loan_reference',
] as const;

export interface PaymentRow {
  id: string;
  reference: string;
  borrower_id: string;
  loan_id: string;
  bank_account_id: string;
  kind: 'one_time' | 'autopay';
  amount_cents: string | number;
  effective_on: string;
  status: Selectable<PaymentTable>['status'];
  return_code: string | null;
  created_at: Date;
  settled_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  cancelled_by: string | null;
  trace_number: string | null;
  request_sha256: string | null;
  bank_name: string | null;
  account_last4: string;
  loan_reference: string;
}

export interface Authorization {
  text: string;
  sha256: string;
  version: number;
  at: Date;
  clientAddress: string | null;
  userAgent: string | null;
}

export interface NewPayment {
  borrowerId: string;
  loanId: string;
  bankAccountId: string;
  kind: 'one_time' | 'autopay';
  amountCents: number;
  effectiveOn: string;
  idempotencyKey: string | null;
  requestSha256: string | null;
  instalmentDueOn: string | null;
  authorization: Authorization;
}

/** A reference a borrower can read out: P- and ten letters and digits without look-alikes. */
export function newPaymentReference(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(10);
  return `P-${[...bytes].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

export const selectPayments = (db: Kysely<ApiDatabase>) =>
  db
    .selectFrom('payment')
    .innerJoin('bank_account', 'bank_account.id', 'payment.bank_account_id')
    .innerJoin('loan', 'loan.id', 'payment.loan_id')
    .select(PAYMENT_COLUMNS);

export function paymentRepository(db: Kysely<ApiDatabase>) {
  return {
    /** Runs `work` with the borrower's row locked: one payment decision at a time per borrower. */
    forBorrower: <T>(borrowerId: string, work: (trx: Transaction<ApiDatabase>) => Promise<T>) =>
      db.transaction().execute(async (trx) => {
        await trx.selectFrom('borrower').select('id').where('id', '=', borrowerId).forUpdate().execute();
        return work(trx);
      }),

    byKey: (trx: Kysely<ApiDatabase>, borrowerId: string, key: string) =>
      selectPayments(trx)
        .where('payment.borrower_id', '=', borrowerId)
        .where('payment.idempotency_key', '=', key)
        .executeTakeFirst() as Promise<PaymentRow | undefined>,

    one: (borrowerId: string, loanId: string, id: string, executor: Kysely<ApiDatabase> = db) =>
      selectPayments(executor)
        .where('payment.borrower_id', '=', borrowerId)
        .where('payment.loan_id', '=', loanId)
        .where('payment.id', '=', id)
        .executeTakeFirst() as Promise<PaymentRow | undefined>,

    byId: (id: string, executor: Kysely<ApiDatabase> = db) =>
      selectPayments(executor).where('payment.id', '=', id).executeTakeFirst() as Promise<
        PaymentRow | undefined
      >,

    /** The loan's payments, newest first. */
    ofLoan: (borrowerId: string, loanId: string) =>
      selectPayments(db)
        .where('payment.borrower_id', '=', borrowerId)
        .where('payment.loan_id', '=', loanId)
        .orderBy('payment.created_at', 'desc')
        .execute() as Promise<PaymentRow[]>,

    /** Every payment of a borrower, newest first (staff's view). */
    ofBorrower: (borrowerId: string) =>
      selectPayments(db)
        .where('payment.borrower_id', '=', borrowerId)
        .orderBy('payment.created_at', 'desc')
        .execute() as Promise<PaymentRow[]>,

    /** What is on its way toward the loan: scheduled and pending payments. */
    async inFlightCents(loanId: string, executor: Kysely<ApiDatabase> = db): Promise<number> {
      const row = await executor
        .selectFrom('payment')
        .select(sql<string>`coalesce(sum(amount_cents), 0)`.as('total'))
        .where('loan_id', '=', loanId)
        .where('status', 'in', ['scheduled', 'pending'])
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },

    /** What the borrower has asked to pay since `since` (cancelled payments not counted). */
    async askedSince(trx: Kysely<ApiDatabase>, borrowerId: string, since: Date): Promise<number> {
      const row = await trx
        .selectFrom('payment')
        .select(sql<string>`coalesce(sum(amount_cents), 0)`.as('total'))
        .where('borrower_id', '=', borrowerId)
        .where('created_at', '>=', since)
        .where('status', '<>', 'cancelled')
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },

    /** Writes a payment; undefined when autopay's payment of that instalment exists already. */
    async insert(trx: Kysely<ApiDatabase>, payment: NewPayment): Promise<string | undefined> {
      const { authorization: a } = payment;
      const row = await trx
        .insertInto('payment')
        .values({
          reference: newPaymentReference(),
          borrower_id: payment.borrowerId,
          loan_id: payment.loanId,
          bank_account_id: payment.bankAccountId,
          kind: payment.kind,
          amount_cents: payment.amountCents,
          effective_on: payment.effectiveOn,
          idempotency_key: payment.idempotencyKey,
          request_sha256: payment.requestSha256,
          instalment_due_on: payment.instalmentDueOn,
          authorization_text: a.text,
          authorization_sha256: a.sha256,
          authorization_version: a.version,
          authorized_at: a.at,
          authorized_from: a.clientAddress,
          authorized_user_agent: a.userAgent,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    /** Cancels a payment still scheduled; false when it is not (any more). */
    async cancel(
      trx: Kysely<ApiDatabase>,
      id: string,
      by: { actor: string; reason: string | null },
    ): Promise<boolean> {
      const row = await trx
        .updateTable('payment')
        .set({
          status: 'cancelled',
          cancelled_at: new Date(),
          cancelled_by: by.actor,
          cancel_reason: by.reason,
        })
        .where('id', '=', id)
        .where('status', '=', 'scheduled')
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    autopayOf: (loanId: string, executor: Kysely<ApiDatabase> = db) =>
      executor
        .selectFrom('autopay')
        .leftJoin('bank_account', 'bank_account.id', 'autopay.bank_account_id')
        .select([
          'autopay.loan_id',
          'autopay.borrower_id',
          'autopay.enabled',
          'autopay.bank_account_id',
          'autopay.turned_off_reason',
          'bank_account.bank_name',
          'bank_account.account_last4',
        ])
        .where('autopay.loan_id', '=', loanId)
        .executeTakeFirst(),

    /** The due days of the loan's instalments autopay has debited (not those cancelled or returned). */
    async autopayDebitedDays(loanId: string): Promise<ReadonlySet<string>> {
      const rows = await db
        .selectFrom('payment')
        .select(sql<string>`instalment_due_on::text`.as('due_on'))
        .where('loan_id', '=', loanId)
        .where('kind', '=', 'autopay')
        .where('status', 'in', ['scheduled', 'pending', 'settled'])
        .execute();
      return new Set(rows.map((row) => row.due_on));
    },

    /** Autopay of each of the borrower's loans that has had it. */
    autopaysOfBorrower: (borrowerId: string) =>
      db
        .selectFrom('autopay')
        .innerJoin('loan', 'loan.id', 'autopay.loan_id')
        .leftJoin('bank_account', 'bank_account.id', 'autopay.bank_account_id')
        .select(['autopay.loan_id', 'loan.reference', 'autopay.enabled', 'bank_account.account_last4'])
        .where('autopay.borrower_id', '=', borrowerId)
        .orderBy('loan.reference')
        .execute(),

    /** Turns autopay on for the loan with this authorization (a new one replaces the old). */
    async turnOnAutopay(
      trx: Kysely<ApiDatabase>,
      autopay: { loanId: string; borrowerId: string; bankAccountId: string; authorization: Authorization },
    ): Promise<void> {
      const { authorization: a } = autopay;
      const values: Omit<AutopayTable, 'loan_id' | 'borrower_id'> = {
        bank_account_id: autopay.bankAccountId,
        enabled: true,
        authorization_text: a.text,
        authorization_sha256: a.sha256,
        authorization_version: a.version,
        authorized_at: a.at,
        authorized_from: a.clientAddress,
        authorized_user_agent: a.userAgent,
        turned_off_at: null,
        turned_off_reason: null,
      };
      await trx
        .insertInto('autopay')
        .values({ loan_id: autopay.loanId, borrower_id: autopay.borrowerId, ...values })
        .onConflict((oc) => oc.column('loan_id').doUpdateSet(values))
        .execute();
    },

    /** Turns autopay off; whether it was on. */
    async turnOffAutopay(trx: Kysely<ApiDatabase>, loanId: string, reason: string): Promise<boolean> {
      const row = await trx
        .updateTable('autopay')
        .set({ enabled: false, turned_off_at: new Date(), turned_off_reason: reason })
        .where('loan_id', '=', loanId)
        .where('enabled', '=', true)
        .returning('loan_id')
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type PaymentRepository = ReturnType<typeof paymentRepository>;
