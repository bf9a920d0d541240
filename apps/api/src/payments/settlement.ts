import { randomUUID } from 'node:crypto';
import {
  isOpenLoanStatus,
  returnReasonOf,
  type PaymentFileView,
  type ReturnOutcome,
} from '@customer-core/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { BorrowerLoans } from '../loans/borrower-loans.js';
import {
  addBankingDays,
  dayIn,
  earliestEffectiveDate,
  nextBankingDay,
  type BankCalendar,
} from './banking-days.js';
import type { BorrowerNotices } from './borrower-notices.js';
import {
  nextAutopayDebit,
  SCHEDULE_AHEAD_BANKING_DAYS,
  SYSTEM_ACTOR,
  type AutopayChangeTeller,
  type PaymentActor,
  type PaymentChangeTeller,
} from './loan-payments.js';
import { postPayment, unpostPayment } from './loan-posting-repository.js';
import type { PaymentFileRepository, PaymentFileRow } from './payment-file-repository.js';
import type { PaymentRail } from './payment-rail.js';
import type { PaymentRepository } from './payment-repository.js';

// The lender's side of the money: each run makes autopay's debits of the instalments coming due,
// sends their reminders, and hands everything due to the rail (the bank's file); a file's settlement
// posts its payments to the loans; the bank's returns mark each returned payment and what follows.

/** Autopay reminders go this many banking days before the debit. */
export const REMINDER_BANKING_DAYS = 3;
/** Why a scheduled debit is cancelled by the run: its account was disabled or removed meanwhile. */
const STRANDED = 'the bank account can no longer be debited';
/** File ID Modifiers in the order a day's files take them. */
const MODIFIERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export const fileViewOf = (row: PaymentFileRow): PaymentFileView => ({
  id: row.id,
  createdAt: row.created_at.toISOString(),
  creationDay: String(row.creation_day),
  fileIdModifier: row.file_id_modifier,
  fileName: fileNameOf(row),
  batchCount: row.batch_count,
  entryCount: row.entry_count,
  entryHash: row.entry_hash,
  debitTotalCents: Number(row.debit_total_cents),
  creditTotalCents: Number(row.credit_total_cents),
  sha256: row.sha256,
  createdBy: row.created_by,
  exportedAt: row.exported_at?.toISOString() ?? null,
  settledAt: row.settled_at?.toISOString() ?? null,
});

const fileNameOf = (row: Pick<PaymentFileRow, 'creation_day' | 'file_id_modifier'>) =>
  `ach-${String(row.creation_day).replaceAll('-', '')}-${row.file_id_modifier}.txt`;

export function settlement({
  files,
  payments,
  loans,
  rail,
  calendar,
  tell,
  autopayChanged,
  notices,
  log,
  now = () => new Date(),
}: {
  files: PaymentFileRepository;
  payments: PaymentRepository;
  loans: BorrowerLoans;
  rail: PaymentRail;
  calendar: BankCalendar;
  tell: PaymentChangeTeller;
  autopayChanged: AutopayChangeTeller;
  notices: BorrowerNotices;
  log: FastifyBaseLogger;
  now?: () => Date;
}) {
  /** Autopay's debits of instalments due to be sent by `through`, and reminders of those a few days out. */
  async function autopay(at: Date, through: string, by: PaymentActor) {
    const earliest = earliestEffectiveDate(calendar, at);
    const remindThrough = addBankingDays(through, REMINDER_BANKING_DAYS);
    let made = 0;
    for (const autopay of await files.enabledAutopays()) {
      const loan = await loans.one(autopay.borrower_id, autopay.loan_id);
      if (!loan || !isOpenLoanStatus(loan.status)) continue;
      // Instalments due from the day autopay was turned on: not those already late then.
      const from = dayIn(calendar.timeZone, autopay.authorized_at);
      const next = nextAutopayDebit(
        loan,
        from < earliest ? from : earliest,
        await payments.autopayDebitedDays(loan.id),
      );
      if (!next || next.dueOn < from) continue;
      const payoff = loan.balanceCents - (await payments.inFlightCents(loan.id));
      const amountCents = Math.min(next.amountCents, payoff);
      if (amountCents <= 0) continue;
      const facts = { amountCents, effectiveOn: next.on, loanReference: loan.reference };
      if (next.on <= remindThrough && (await files.takeReminder(loan.id, next.dueOn)))
        await notices.tell(
          autopay.borrower_id,
          {
            kind: 'autopay-reminder',
            payment: { ...facts, last4: autopay.account_last4, bankName: autopay.bank_name },
          },
          `autopay-reminder:${loan.id}:${next.dueOn}`,
        );
      if (next.on > through) continue;
      const id = await payments.forBorrower(autopay.borrower_id, (trx) =>
        payments.insert(trx, {
          borrowerId: autopay.borrower_id,
          loanId: loan.id,
          bankAccountId: autopay.bank_account_id,
          kind: 'autopay',
          amountCents,
          effectiveOn: next.on,
          idempotencyKey: null,
          requestSha256: null,
          instalmentDueOn: next.dueOn,
          authorization: {
            text: autopay.authorization_text,
            sha256: autopay.authorization_sha256,
            version: autopay.authorization_version,
            at: autopay.authorized_at,
            clientAddress: autopay.authorized_from,
            userAgent: autopay.authorized_user_agent,
          },
        }),
      );
      if (!id) continue;
      made += 1;
      await tell((await payments.byId(id))!, 'scheduled', by);
    }
    return made;
  }

  return {
    /**
     * A run: autopay's debits and reminders, then one file of everything due by `through` (by default,
     * what must reach the bank today: effective the next banking day). Null when nothing is due.
     */
    async run(by: PaymentActor, through?: string): Promise<PaymentFileView | null | 'too_far'> {
      const at = now();
      // Nothing can be scheduled later than this: a later day is a typing mistake.
      const latest = addBankingDays(earliestEffectiveDate(calendar, at), SCHEDULE_AHEAD_BANKING_DAYS);
      if (through && through > latest) return 'too_far';
      const today = dayIn(calendar.timeZone, at);
      const nextDay = nextBankingDay(today);
      const until = through && through > nextDay ? through : nextDay;
      await autopay(at, until, by);

      const written = await files.asFileWriter(async (trx) => {
        const stranded = await files.stranded(trx, until);
        const debits = await files.dueDebits(trx, until);
        const verifications = await files.dueVerifications(trx);
        if (debits.length === 0 && verifications.length === 0) return { file: null, stranded };
        const used = await files.modifiersOf(trx, today);
        const modifier = [...MODIFIERS].find((m) => !used.includes(m));
        if (!modifier) throw new Error(`the day's ${MODIFIERS.length} files are written already`);
        // A debit whose day has come and gone (a run missed) settles on the first day it still can.
        const outgoing = debits.map((d) => ({
          ...d,
          effectiveOn: d.effectiveOn < nextDay ? nextDay : d.effectiveOn,
        }));
        const submitted = rail.submit({
          createdAt: at,
          fileIdModifier: modifier,
          verificationsOn: nextDay,
          debits: outgoing,
          verifications,
          traceSequences: await files.traceSequences(
            trx,
            rail.entriesOf(debits.length, verifications.length),
          ),
        });
        const id = randomUUID();
        const { file } = submitted;
        await files.insertFile(trx, {
          id,
          creation_day: today,
          file_id_modifier: modifier,
          batch_count: file.batchCount,
          entry_count: file.entryCount,
          entry_hash: file.entryHash,
          debit_total_cents: file.debitTotalCents,
          credit_total_cents: file.creditTotalCents,
          sha256: file.sha256,
          content: file.text,
          created_by: by.actor,
        });
        await files.markSent(
          trx,
          id,
          outgoing.map((d) => ({
            id: d.id,
            trace: submitted.debitTraces.get(d.id)!,
            effectiveOn: d.effectiveOn,
          })),
          [...submitted.verifications].map(([accountId, sent]) => ({ id: accountId, ...sent })),
        );
        return { file: (await files.file(id, trx))!, stranded, debits: outgoing };
      });

      // A scheduled debit whose account can no longer be debited is cancelled, and the borrower told.
      for (const { id } of written.stranded) {
        const payment = (await payments.byId(id))!;
        const cancelled = await payments.forBorrower(payment.borrower_id, (trx) =>
          payments.cancel(trx, id, { actor: SYSTEM_ACTOR.actor, reason: STRANDED }),
        );
        if (cancelled) await tell((await payments.byId(id))!, 'cancelled', { ...by, reason: STRANDED });
      }
      if (!written.file) return null;
      for (const debit of written.debits ?? []) {
        const payment = (await payments.byId(debit.id))!;
        await tell(payment, 'pending', by);
      }
      const view = fileViewOf(written.file);
      log.info(
        {
          fileId: view.id,
          entries: view.entryCount,
          debitTotalCents: view.debitTotalCents,
          sha256: view.sha256,
        },
        'payment file written',
      );
      return view;
    },

    files: async () => (await files.files()).map(fileViewOf),

    /** The file's bytes for the bank: once, or again when forced (the route's audit keeps who and why). */
    async export(fileId: string, force: boolean) {
      const file = await files.file(fileId);
      if (!file) return undefined;
      const exported = await files.export(fileId, force);
      if (exported === undefined) return undefined;
      if (exported === 'refused') return 'refused' as const;
      return { file: fileViewOf(file), content: exported.content };
    },

    /** The bank confirmed the file settled: its payments still pending are posted to their loans. */
    async settle(fileId: string, by: PaymentActor): Promise<{ settled: number } | undefined> {
      if (!(await files.file(fileId))) return undefined;
      const today = dayIn(calendar.timeZone, now());
      const settled = await files.asFileWriter(async (trx) => {
        const pending = await files.pendingOfFile(trx, fileId);
        for (const payment of pending) {
          await files.markSettled(trx, payment.id);
          await postPayment(
            trx,
            {
              id: payment.id,
              loanId: payment.loan_id,
              amountCents: Number(payment.amount_cents),
              paidOn: payment.effective_on,
            },
            today,
          );
        }
        await files.markFileSettled(trx, fileId);
        return pending.map((p) => p.id);
      });
      for (const id of settled) {
        const payment = (await payments.byId(id))!;
        await tell(payment, 'settled', by);
      }
      return { settled: settled.length };
    },

    /**
     * The bank's returns: each returned payment marked with its code, its amount owed again (taken
     * back off the loan where it was posted), its account disabled where the code says so, and autopay
     * turned off for an unauthorized debit; a returned micro-deposit fails the account's verification.
     * A return read before is passed over; one that matches nothing is reported for operators.
     */
    async readReturns(input: string, by: PaymentActor): Promise<ReturnOutcome[]> {
      const items = rail.readReturns(input);
      const today = dayIn(calendar.timeZone, now());
      const outcomes: ReturnOutcome[] = [];
      for (const item of items) {
        const done = await files.asFileWriter(async (trx) => {
          const returnId = await files.recordReturn(trx, item);
          if (!returnId) return { outcome: 'already_read' as const };
          const payment = await files.paymentOfTrace(trx, item.originalTrace);
          if (payment && (payment.status === 'pending' || payment.status === 'settled')) {
            await files.markReturned(trx, returnId, payment.id, item.returnCode);
            if (payment.status === 'settled')
              await unpostPayment(
                trx,
                {
                  id: payment.id,
                  loanId: payment.loan_id,
                  amountCents: Number(payment.amount_cents),
                  paidOn: payment.effective_on,
                },
                today,
              );
            const effect = returnReasonOf(item.returnCode).effect;
            const autopays =
              effect === 'none' ? [] : await files.autopaysOfAccount(trx, payment.bank_account_id);
            if (effect !== 'none')
              await files.setAccountStatus(
                trx,
                payment.bank_account_id,
                'disabled',
                item.returnCode,
                returnId,
              );
            return { outcome: 'payment' as const, paymentId: payment.id, autopays };
          }
          const account = await files.accountOfMicroTrace(trx, item.originalTrace);
          if (account) {
            await files.setAccountStatus(trx, account.id, 'failed', item.returnCode, returnId);
            return { outcome: 'verification' as const, accountId: account.id };
          }
          return { outcome: 'unmatched' as const };
        });
        const base = {
          originalTrace: item.originalTrace,
          returnCode: item.returnCode,
          amountCents: item.amountCents,
        };
        if (done.outcome === 'payment') {
          const payment = (await payments.byId(done.paymentId))!;
          await tell(payment, 'returned', by);
          // Unauthorized (R05, R07, R08, R10, R11, R29): no more debits until the borrower authorizes again.
          if (returnReasonOf(item.returnCode).effect === 'unauthorized')
            for (const autopay of done.autopays) {
              const off = await payments.forBorrower(autopay.borrower_id, (trx) =>
                payments.turnOffAutopay(trx, autopay.loan_id, `return ${item.returnCode}`),
              );
              if (off)
                await autopayChanged(
                  autopay.borrower_id,
                  { id: autopay.loan_id, reference: autopay.reference },
                  'off',
                  null,
                  {
                    ...by,
                    reason: `return ${item.returnCode}`,
                  },
                );
            }
          outcomes.push({ ...base, matched: 'payment', paymentReference: payment.reference });
        } else if (done.outcome === 'verification') {
          outcomes.push({ ...base, matched: 'verification', paymentReference: null });
        } else {
          outcomes.push({
            ...base,
            matched: done.outcome === 'already_read' ? 'already_read' : null,
            paymentReference: null,
          });
          if (done.outcome === 'unmatched')
            log.warn(
              { originalTrace: item.originalTrace, returnCode: item.returnCode },
              'return matches no entry',
            );
        }
      }
      return outcomes;
    },
  };
}

export type Settlement = ReturnType<typeof settlement>;
