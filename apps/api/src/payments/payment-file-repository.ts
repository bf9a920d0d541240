import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { SecretBox } from '@customer-core/database';
import { placeIn } from '@customer-core/database';
import { PAYMENT_FILE_CONTENT } from '../db/sealed-columns.js';
import type { ApiDatabase, PaymentFileTable } from '../db/schema.js';
import { openedAccountNumber, sealedMicroAmounts } from './bank-account-repository.js';

// The SQL of the lender's bank files: what is due to go out (locked, so two runs never send one
// entry twice), the file written with its entries' traces, its settlement, and returns read back.

export type PaymentFileRow = Omit<Selectable<PaymentFileTable>, 'content'>;

const FILE_COLUMNS = [
  'id',
  'created_at',
  sql<string>`creation_day::text`.as('creation_day'),
  'file_id_modifier',
  'batch_count',
  'entry_count',
  'entry_hash',
  'debit_total_cents',
  'credit_total_cents',
  'sha256',
  'created_by',
  'exported_at',
  'settled_at',
] as const;

export interface DueDebit {
  id: string;
  borrowerId: string;
  loanId: string;
  amountCents: number;
  effectiveOn: string;
  reference: string;
  holderName: string;
  routingNumber: string;
  accountType: 'checking' | 'savings';
  accountNumber: string;
}

export interface DueVerification {
  id: string;
  holderName: string;
  routingNumber: string;
  accountType: 'checking' | 'savings';
  accountNumber: string;
}

export function paymentFileRepository(db: Kysely<ApiDatabase>, secrets: SecretBox) {
  return {
    /**
     * Runs `work` as the only file writer of the moment (a transaction-scoped advisory lock: another
     * instance's run waits, then finds what this one sent already taken).
     */
    asFileWriter: <T>(work: (trx: Transaction<ApiDatabase>) => Promise<T>) =>
      db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext('customer-core:payment-file'))`.execute(trx);
        return work(trx);
      }),

    /** Scheduled debits effective by `through`, from accounts still verified; locked. */
    async dueDebits(trx: Kysely<ApiDatabase>, through: string): Promise<DueDebit[]> {
      const rows = await trx
        .selectFrom('payment')
        .innerJoin('bank_account', 'bank_account.id', 'payment.bank_account_id')
        .select([
          'payment.id',
          'payment.borrower_id',
          'payment.loan_id',
          'payment.amount_cents',
          sql<string>`payment.effective_on::text`.as('effective_on'),
          'payment.reference',
          'bank_account.id as account_id',
          'bank_account.holder_name',
          'bank_account.routing_number',
          'bank_account.account_type',
          'bank_account.account_number',
        ])
        .where('payment.status', '=', 'scheduled')
        .where(sql<boolean>`payment.effective_on <= ${through}::date`)
        .where('bank_account.status', '=', 'verified')
        .where('bank_account.removed_at', 'is', null)
        .orderBy('payment.created_at')
        .forUpdate('payment')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        borrowerId: row.borrower_id,
        loanId: row.loan_id,
        amountCents: Number(row.amount_cents),
        effectiveOn: row.effective_on,
        reference: row.reference,
        holderName: row.holder_name,
        routingNumber: row.routing_number,
        accountType: row.account_type,
        accountNumber: openedAccountNumber(secrets, row.account_id, row.account_number),
      }));
    },

    /** Scheduled debits due by `through` whose account can no longer be debited (disabled, failed). */
    stranded: (trx: Kysely<ApiDatabase>, through: string) =>
      trx
        .selectFrom('payment')
        .innerJoin('bank_account', 'bank_account.id', 'payment.bank_account_id')
        .select('payment.id')
        .where('payment.status', '=', 'scheduled')
        .where(sql<boolean>`payment.effective_on <= ${through}::date`)
        .where((eb) =>
          eb.or([eb('bank_account.status', '<>', 'verified'), eb('bank_account.removed_at', 'is not', null)]),
        )
        .execute(),

    /** Accounts whose micro-deposits no file has carried yet; locked. */
    async dueVerifications(trx: Kysely<ApiDatabase>): Promise<DueVerification[]> {
      const rows = await trx
        .selectFrom('bank_account')
        .select(['id', 'holder_name', 'routing_number', 'account_type', 'account_number'])
        .where('status', '=', 'pending_verification')
        .where('micro_file_id', 'is', null)
        .where('removed_at', 'is', null)
        .orderBy('created_at')
        .forUpdate()
        .execute();
      return rows.map((row) => ({
        id: row.id,
        holderName: row.holder_name,
        routingNumber: row.routing_number,
        accountType: row.account_type,
        accountNumber: openedAccountNumber(secrets, row.id, row.account_number),
      }));
    },

    /** The next `count` trace sequence numbers. */
    async traceSequences(trx: Kysely<ApiDatabase>, count: number): Promise<number[]> {
      const { rows } = await sql<{ n: string | number }>`
        select nextval('ach_trace_sequence') as n from generate_series(1, ${count})`.execute(trx);
      return rows.map((row) => Number(row.n));
    },

    /** The File ID Modifiers of the day's files so far. */
    async modifiersOf(trx: Kysely<ApiDatabase>, day: string): Promise<string[]> {
      const rows = await trx
        .selectFrom('payment_file')
        .select('file_id_modifier')
        .where(sql<boolean>`creation_day = ${day}::date`)
        .execute();
      return rows.map((row) => row.file_id_modifier);
    },

    async insertFile(
      trx: Kysely<ApiDatabase>,
      file: {
        id: string;
        creation_day: string;
        file_id_modifier: string;
        batch_count: number;
        entry_count: number;
        entry_hash: string;
        debit_total_cents: number;
        credit_total_cents: number;
        sha256: string;
        created_by: string;
        content: string;
      },
    ): Promise<void> {
      await trx
        .insertInto('payment_file')
        .values({ ...file, content: secrets.seal(file.content, placeIn(PAYMENT_FILE_CONTENT, file.id)) })
        .execute();
    },

    async markSent(
      trx: Kysely<ApiDatabase>,
      fileId: string,
      debits: { id: string; trace: string; effectiveOn: string }[],
      verifications: { id: string; traces: string[]; amounts: [number, number] }[],
    ): Promise<void> {
      for (const debit of debits)
        await trx
          .updateTable('payment')
          .set({
            status: 'pending',
            file_id: fileId,
            trace_number: debit.trace,
            effective_on: debit.effectiveOn,
          })
          .where('id', '=', debit.id)
          .execute();
      for (const account of verifications)
        await trx
          .updateTable('bank_account')
          .set({
            micro_file_id: fileId,
            micro_traces: account.traces,
            micro_amounts: sealedMicroAmounts(secrets, account.id, account.amounts),
          })
          .where('id', '=', account.id)
          .execute();
    },

    files: () =>
      db.selectFrom('payment_file').select(FILE_COLUMNS).orderBy('created_at', 'desc').limit(100).execute(),

    file: (id: string, executor: Kysely<ApiDatabase> = db) =>
      executor.selectFrom('payment_file').select(FILE_COLUMNS).where('id', '=', id).executeTakeFirst(),

    /** The file's bytes, and whether this was their first export (later ones only when forced). */
    async export(
      id: string,
      force: boolean,
    ): Promise<{ content: string; first: boolean } | 'refused' | undefined> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('payment_file')
          .select(['content', 'exported_at'])
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return undefined;
        if (row.exported_at && !force) return 'refused' as const;
        if (!row.exported_at)
          await trx
            .updateTable('payment_file')
            .set({ exported_at: new Date() })
            .where('id', '=', id)
            .execute();
        return {
          content: secrets.open(row.content, placeIn(PAYMENT_FILE_CONTENT, id)),
          first: !row.exported_at,
        };
      });
    },

    /** The file's payments still pending, locked, for settling. */
    pendingOfFile: (trx: Kysely<ApiDatabase>, fileId: string) =>
      trx
        .selectFrom('payment')
        .select(['id', 'loan_id', 'amount_cents', sql<string>`effective_on::text`.as('effective_on')])
        .where('file_id', '=', fileId)
        .where('status', '=', 'pending')
        .forUpdate()
        .execute(),

    markSettled: (trx: Kysely<ApiDatabase>, paymentId: string) =>
      trx
        .updateTable('payment')
        .set({ status: 'settled', settled_at: new Date() })
        .where('id', '=', paymentId)
        .execute(),

    markFileSettled: (trx: Kysely<ApiDatabase>, fileId: string) =>
      trx.updateTable('payment_file').set({ settled_at: new Date() }).where('id', '=', fileId).execute(),

    /** Records a return once; false when this trace's return was read before. */
    async recordReturn(
      trx: Kysely<ApiDatabase>,
      entry: { originalTrace: string; returnCode: string; amountCents: number },
    ): Promise<string | undefined> {
      const row = await trx
        .insertInto('payment_return')
        .values({
          original_trace: entry.originalTrace,
          return_code: entry.returnCode,
          amount_cents: entry.amountCents,
        })
        .onConflict((oc) => oc.columns(['original_trace', 'return_code']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    paymentOfTrace: (trx: Kysely<ApiDatabase>, trace: string) =>
      trx
        .selectFrom('payment')
        .select([
          'id',
          'borrower_id',
          'loan_id',
          'bank_account_id',
          'status',
          'amount_cents',
          sql<string>`effective_on::text`.as('effective_on'),
        ])
        .where('trace_number', '=', trace)
        .forUpdate()
        .executeTakeFirst(),

    accountOfMicroTrace: (trx: Kysely<ApiDatabase>, trace: string) =>
      trx
        .selectFrom('bank_account')
        .select(['id', 'borrower_id', 'status'])
        .where(sql<boolean>`${trace} = any(micro_traces)`)
        .forUpdate()
        .executeTakeFirst(),

    async markReturned(
      trx: Kysely<ApiDatabase>,
      returnId: string,
      paymentId: string,
      code: string,
    ): Promise<void> {
      await trx
        .updateTable('payment')
        .set({ status: 'returned', return_code: code, returned_at: new Date() })
        .where('id', '=', paymentId)
        .execute();
      await trx
        .updateTable('payment_return')
        .set({ payment_id: paymentId })
        .where('id', '=', returnId)
        .execute();
    },

    /** An account a return speaks against: failed (a micro-deposit's) or disabled (a debit's). */
    async setAccountStatus(
      trx: Kysely<ApiDatabase>,
      accountId: string,
      status: 'failed' | 'disabled',
      code: string,
      returnId: string,
    ): Promise<void> {
      await trx
        .updateTable('bank_account')
        .set({ status, disabled_reason: code, micro_amounts: null })
        .where('id', '=', accountId)
        .execute();
      await trx
        .updateTable('payment_return')
        .set({ bank_account_id: accountId })
        .where('id', '=', returnId)
        .execute();
    },

    /** Autopays on whose account the return speaks against, to turn off. */
    autopaysOfAccount: (trx: Kysely<ApiDatabase>, accountId: string) =>
      trx
        .selectFrom('autopay')
        .innerJoin('loan', 'loan.id', 'autopay.loan_id')
        .select(['autopay.loan_id', 'autopay.borrower_id', 'loan.reference'])
        .where('autopay.bank_account_id', '=', accountId)
        .where('autopay.enabled', '=', true)
        .execute(),

    /** Loans with autopay on: each one's loan and borrower. */
    enabledAutopays: () =>
      db
        .selectFrom('autopay')
        .innerJoin('bank_account', 'bank_account.id', 'autopay.bank_account_id')
        .select([
          'autopay.loan_id',
          'autopay.borrower_id',
          'autopay.bank_account_id',
          'autopay.authorized_at',
          'autopay.authorization_text',
          'autopay.authorization_sha256',
          'autopay.authorization_version',
          'autopay.authorized_from',
          'autopay.authorized_user_agent',
          'bank_account.account_last4',
          'bank_account.bank_name',
        ])
        .where('autopay.enabled', '=', true)
        .where('bank_account.status', '=', 'verified')
        .execute(),

    /** Whether the reminder of this debit is yet to be sent (and takes it: sent once). */
    async takeReminder(loanId: string, dueOn: string): Promise<boolean> {
      const row = await db
        .insertInto('autopay_reminder')
        .values({ loan_id: loanId, due_on: dueOn })
        .onConflict((oc) => oc.doNothing())
        .returning('loan_id')
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type PaymentFileRepository = ReturnType<typeof paymentFileRepository>;
