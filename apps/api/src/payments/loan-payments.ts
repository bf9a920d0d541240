import { randomUUID } from 'node:crypto';
import {
  AUTHORIZATION_VERSION,
  isOpenLoanStatus,
  paymentAuthorizationText,
  type Autopay,
  type AutopayRequest,
  type BorrowerPaymentsView,
  type LoanDetail,
  type LoanPayments,
  type MakePaymentRequest,
  type Payment,
  type PaymentOptions,
  type PaymentRefusal,
} from '@customer-core/contracts';
import type { AuditTrail, AuditValue } from '../audit/audit-trail.js';
import type { BorrowerLoans } from '../loans/borrower-loans.js';
import { sha256Hex } from '../loans/loan-checkout.js';
import type { WebhookEvents } from '../webhooks/webhooks.js';
import type { BankAccountRepository, BankAccountRow } from './bank-account-repository.js';
import { bankAccountViewOf } from './bank-accounts.js';
import {
  addBankingDays,
  bankingDayOnOrAfter,
  beforeCutoff,
  cutoffInstant,
  dayIn,
  earliestEffectiveDate,
  isBankingDay,
  nextBankingDay,
  sendByDay,
  type BankCalendar,
} from './banking-days.js';
import type { BorrowerNotices } from './borrower-notices.js';
import type { Authorization, PaymentRepository, PaymentRow } from './payment-repository.js';

// Paying a loan: what can be paid from which day, a one-time payment, its cancellation until the
// cut-off, and autopay. Every state change of a payment is in the borrower's audit, e-mailed to them
// and told to the lender's systems (webhooks).

/** How far ahead a payment can be scheduled, in banking days. */
export const SCHEDULE_AHEAD_BANKING_DAYS = 60;

export interface PaymentLimits {
  maxPaymentCents: number;
  dailyMaxCents: number;
}

/** Who changed a payment, as the audit trail names them. */
export interface PaymentActor {
  actor: string;
  role: string;
  reason?: string | null;
  clientAddress?: string | null;
  requestId?: string | null;
}

export const SYSTEM_ACTOR: PaymentActor = { actor: 'system:payments', role: 'system' };

export type PaymentChange = 'scheduled' | 'pending' | 'settled' | 'returned' | 'cancelled';

/** A change to a borrower's payments in the audit of their account, by whoever made it. */
const auditChange = (
  audit: AuditTrail,
  borrowerId: string,
  action: string,
  after: AuditValue,
  by: PaymentActor,
) =>
  audit.record({
    actor: by.actor,
    role: by.role,
    action,
    target: `borrower:${borrowerId}`,
    outcome: 200,
    after,
    reason: by.reason ?? null,
    clientAddress: by.clientAddress ?? null,
    requestId: by.requestId ?? null,
  });

/** The audit record, the webhook event and the e-mail of a payment's change (not of `pending`). */
export function paymentChangeTeller({
  audit,
  events,
  notices,
}: {
  audit: AuditTrail;
  events: WebhookEvents;
  notices: BorrowerNotices;
}) {
  return async (payment: PaymentRow, change: PaymentChange, by: PaymentActor) => {
    const loanReference = payment.loan_reference;
    const facts = {
      paymentId: payment.id,
      reference: payment.reference,
      loanId: payment.loan_id,
      loanReference,
      kind: payment.kind,
      amountCents: Number(payment.amount_cents),
      effectiveOn: payment.effective_on,
      ...(change === 'returned' ? { returnCode: payment.return_code } : {}),
    };
    await auditChange(audit, payment.borrower_id, `payment ${change}`, { ...facts, status: change }, by);
    if (change === 'pending') return;
    await events.publish(`payment.${change}`, { borrowerId: payment.borrower_id, ...facts });
    events.nudge();
    const told = {
      reference: payment.reference,
      amountCents: facts.amountCents,
      effectiveOn: payment.effective_on,
      loanReference,
      last4: payment.account_last4,
      bankName: payment.bank_name,
    };
    await notices.tell(
      payment.borrower_id,
      change === 'returned'
        ? { kind: 'payment-returned', payment: told, returnCode: payment.return_code ?? '' }
        : { kind: `payment-${change}`, payment: told },
      `payment-${change}:${payment.id}`,
    );
  };
}

export type PaymentChangeTeller = ReturnType<typeof paymentChangeTeller>;

/** The audit record, the webhook event and the e-mail of autopay turned on or off. */
export function autopayChangeTeller({
  audit,
  events,
  notices,
}: {
  audit: AuditTrail;
  events: WebhookEvents;
  notices: BorrowerNotices;
}) {
  return async (
    borrowerId: string,
    loan: { id: string; reference: string },
    change: 'on' | 'off',
    last4: string | null,
    by: PaymentActor,
  ) => {
    await auditChange(
      audit,
      borrowerId,
      `autopay ${change}`,
      {
        loanId: loan.id,
        loanReference: loan.reference,
        autopay: change,
      },
      by,
    );
    await events.publish(change === 'on' ? 'autopay.enabled' : 'autopay.disabled', {
      borrowerId,
      loanId: loan.id,
      loanReference: loan.reference,
    });
    events.nudge();
    await notices.tell(
      borrowerId,
      { kind: change === 'on' ? 'autopay-on' : 'autopay-off', loanReference: loan.reference, last4 },
      `autopay-${change}:${loan.id}:${randomUUID()}`,
    );
  };
}

export type AutopayChangeTeller = ReturnType<typeof autopayChangeTeller>;

export function paymentViewOf(row: PaymentRow, calendar: BankCalendar, now: Date): Payment {
  const cancellable = row.status === 'scheduled' && beforeCutoff(calendar, row.effective_on, now);
  return {
    id: row.id,
    reference: row.reference,
    loanId: row.loan_id,
    amountCents: Number(row.amount_cents),
    effectiveOn: row.effective_on,
    status: row.status,
    kind: row.kind,
    bankAccount: { id: row.bank_account_id, bankName: row.bank_name, last4: row.account_last4 },
    cancellableUntil: cancellable ? cutoffInstant(calendar, sendByDay(row.effective_on)).toISOString() : null,
    returnCode: row.return_code,
    createdAt: row.created_at.toISOString(),
    settledAt: row.settled_at?.toISOString() ?? null,
  };
}

/**
 * The next instalment autopay would debit, as of `earliest`: the first unpaid one due from then on
 * whose debit is not made yet (`debited`: the due days of autopay's debits on their way or done).
 */
export function nextAutopayDebit(loan: LoanDetail, earliest: string, debited: ReadonlySet<string>) {
  const next = loan.instalments.find(
    (i) => i.state === 'upcoming' && bankingDayOnOrAfter(i.dueOn) >= earliest && !debited.has(i.dueOn),
  );
  return next
    ? { dueOn: next.dueOn, on: bankingDayOnOrAfter(next.dueOn), amountCents: next.amountCents }
    : null;
}

/** Who cancelled a payment, from the actor the audit trail names. */
const cancellerOf = (actor: string | null) =>
  actor === null
    ? null
    : actor.startsWith('borrower:')
      ? ('borrower' as const)
      : actor === SYSTEM_ACTOR.actor
        ? ('portal' as const)
        : ('staff' as const);

type Outcome<T> = { ok: true; value: T } | { ok: false; problem: PaymentRefusal };

/** Where a borrower's request came from: kept with what they authorized, and in the audit trail. */
export interface RequestSource {
  clientAddress: string | null;
  userAgent: string | null;
  requestId: string;
}

/** The words accepted, as kept: with their version, when and from where. */
const accepted = (shown: { text: string; sha256: string }, at: Date, from: RequestSource): Authorization => ({
  ...shown,
  version: AUTHORIZATION_VERSION,
  at,
  clientAddress: from.clientAddress,
  userAgent: from.userAgent,
});

/** The borrower as the audit trail names them, for a change they made. */
const borrowerActor = (borrowerId: string, from: RequestSource): PaymentActor => ({
  actor: `borrower:${borrowerId}`,
  role: 'borrower',
  clientAddress: from.clientAddress,
  requestId: from.requestId,
});

export function loanPayments({
  payments,
  accounts,
  loans,
  calendar,
  limits,
  lender,
  tell,
  autopayChanged,
  now = () => new Date(),
}: {
  payments: PaymentRepository;
  accounts: BankAccountRepository;
  loans: BorrowerLoans;
  calendar: BankCalendar;
  limits: PaymentLimits;
  lender: { name: string; supportPhone: string };
  tell: PaymentChangeTeller;
  autopayChanged: AutopayChangeTeller;
  now?: () => Date;
}) {
  function options(loan: LoanDetail, inFlight: number, at: Date): PaymentOptions {
    const earliest = earliestEffectiveDate(calendar, at);
    const latest = addBankingDays(earliest, SCHEDULE_AHEAD_BANKING_DAYS);
    const bankingDays: string[] = [];
    for (let day = earliest; day <= latest; day = nextBankingDay(day)) bankingDays.push(day);
    const next = loan.instalments.find((i) => i.state === 'upcoming');
    return {
      pastDueCents: loan.overdue?.amountCents ?? null,
      nextInstalment: next
        ? { dueOn: next.dueOn, amountCents: next.amountCents }
        : loan.nextPayment && loan.nextPayment.amountCents > 0
          ? loan.nextPayment
          : null,
      payoffCents: Math.max(0, loan.balanceCents - inFlight),
      earliestDate: earliest,
      latestDate: latest,
      bankingDays,
      maxPaymentCents: limits.maxPaymentCents,
      cutoff: { time: calendar.cutoff, timeZone: calendar.timeZone },
    };
  }

  async function autopayView(loan: LoanDetail, at: Date): Promise<Autopay> {
    const autopay = await payments.autopayOf(loan.id);
    if (!autopay?.enabled) return { enabled: false, bankAccount: null, nextDebit: null, changeBy: null };
    const next = nextAutopayDebit(
      loan,
      earliestEffectiveDate(calendar, at),
      await payments.autopayDebitedDays(loan.id),
    );
    return {
      enabled: true,
      bankAccount: {
        id: autopay.bank_account_id,
        bankName: autopay.bank_name ?? null,
        last4: autopay.account_last4 ?? '',
      },
      nextDebit: next ? { on: next.on, amountCents: next.amountCents } : null,
      changeBy: next ? cutoffInstant(calendar, sendByDay(next.on)).toISOString() : null,
    };
  }

  /** The authorization as the API writes it from the facts: what the borrower must have been shown. */
  function authorizationOf(
    account: BankAccountRow,
    locale: MakePaymentRequest['locale'],
    terms: Parameters<typeof paymentAuthorizationText>[0]['terms'],
  ) {
    const text = paymentAuthorizationText({
      locale,
      holderName: account.holder_name,
      bankName: account.bank_name,
      last4: account.account_last4,
      lenderName: lender.name,
      supportPhone: lender.supportPhone,
      terms,
    });
    return { text, sha256: sha256Hex(text) };
  }

  const usable = (account: BankAccountRow | undefined) => account?.status === 'verified';

  return {
    /** Staff's view of a borrower: accounts, every payment, autopay of each loan. */
    async ofBorrower(borrowerId: string): Promise<BorrowerPaymentsView> {
      const at = now();
      return {
        accounts: (await accounts.list(borrowerId)).map(bankAccountViewOf),
        payments: (await payments.ofBorrower(borrowerId)).map((row) => ({
          ...paymentViewOf(row, calendar, at),
          loanReference: row.loan_reference,
          cancelReason: row.cancel_reason,
          cancelledBy: cancellerOf(row.cancelled_by),
        })),
        autopays: (await payments.autopaysOfBorrower(borrowerId)).map((row) => ({
          loanId: row.loan_id,
          loanReference: row.reference,
          enabled: row.enabled,
          last4: row.account_last4,
        })),
      };
    },

    /** A payment by its id alone (staff), for its borrower and loan. */
    paymentById: (id: string) => payments.byId(id),

    async ofLoan(borrowerId: string, loanId: string): Promise<LoanPayments | undefined> {
      const loan = await loans.one(borrowerId, loanId);
      if (!loan) return undefined;
      const at = now();
      const inFlight = await payments.inFlightCents(loanId);
      return {
        options: options(loan, inFlight, at),
        payments: (await payments.ofLoan(borrowerId, loanId)).map((row) => paymentViewOf(row, calendar, at)),
        autopay: await autopayView(loan, at),
        lender,
      };
    },

    /**
     * Schedules a payment. The same idempotency key again answers with the first payment (another
     * body with it is refused): a double click or a retried request never pays twice.
     */
    async pay(
      borrowerId: string,
      loanId: string,
      request: MakePaymentRequest,
      from: RequestSource,
    ): Promise<Outcome<Payment> | undefined> {
      const loan = await loans.one(borrowerId, loanId);
      if (!loan) return undefined;
      const { idempotencyKey, ...asked } = request;
      const requestSha256 = sha256Hex(JSON.stringify({ loanId, ...asked }));
      const at = now();
      const outcome = await payments.forBorrower(borrowerId, async (trx) => {
        const earlier = await payments.byKey(trx, borrowerId, idempotencyKey);
        if (earlier)
          return earlier.request_sha256 === requestSha256
            ? ({ ok: true, row: earlier, created: false } as const)
            : ({ ok: false, problem: 'idempotency_key_reused' } as const);
        const account = await accounts.one(borrowerId, request.bankAccountId, trx);
        if (!account) return undefined;
        if (!isOpenLoanStatus(loan.status)) return { ok: false, problem: 'loan_not_payable' } as const;
        if (!usable(account)) return { ok: false, problem: 'bank_account_not_usable' } as const;
        const earliest = earliestEffectiveDate(calendar, at);
        const latest = addBankingDays(earliest, SCHEDULE_AHEAD_BANKING_DAYS);
        const day = request.effectiveOn;
        if (!isBankingDay(day) || day < earliest || day > latest)
          return { ok: false, problem: 'date_unavailable' } as const;
        if (request.amountCents > limits.maxPaymentCents)
          return { ok: false, problem: 'amount_over_limit' } as const;
        const payoff = loan.balanceCents - (await payments.inFlightCents(loanId, trx));
        if (request.amountCents > payoff) return { ok: false, problem: 'amount_over_payoff' } as const;
        const dayStart = cutoffInstant({ ...calendar, cutoff: '00:00' }, dayIn(calendar.timeZone, at));
        const askedToday = await payments.askedSince(trx, borrowerId, dayStart);
        if (askedToday + request.amountCents > limits.dailyMaxCents)
          return { ok: false, problem: 'daily_limit_reached' } as const;
        const shown = authorizationOf(account, request.locale, {
          kind: 'one_time',
          amountCents: request.amountCents,
          effectiveOn: day,
        });
        if (shown.sha256 !== request.authorizationSha256)
          return { ok: false, problem: 'authorization_outdated' } as const;
        const authorization = accepted(shown, at, from);
        const id = await payments.insert(trx, {
          borrowerId,
          loanId,
          bankAccountId: account.id,
          kind: 'one_time',
          amountCents: request.amountCents,
          effectiveOn: day,
          idempotencyKey,
          requestSha256,
          instalmentDueOn: null,
          authorization,
        });
        if (!id) throw new Error('a payment with a fresh idempotency key was not written');
        const row = await payments.byId(id, trx);
        return { ok: true, row: row!, created: true } as const;
      });
      if (!outcome) return undefined;
      if (!outcome.ok) return outcome;
      if (outcome.created) await tell(outcome.row, 'scheduled', borrowerActor(borrowerId, from));
      return { ok: true, value: paymentViewOf(outcome.row, calendar, at) };
    },

    /** Cancels a scheduled payment until its cut-off: by the borrower, or by staff with a reason. */
    async cancel(
      borrowerId: string,
      loanId: string,
      paymentId: string,
      by: PaymentActor,
    ): Promise<Outcome<Payment> | undefined> {
      const loan = await loans.one(borrowerId, loanId);
      const payment = loan && (await payments.one(borrowerId, loanId, paymentId));
      if (!loan || !payment) return undefined;
      const at = now();
      if (!beforeCutoff(calendar, payment.effective_on, at)) return { ok: false, problem: 'not_cancellable' };
      const cancelled = await payments.forBorrower(borrowerId, (trx) =>
        payments.cancel(trx, paymentId, { actor: by.actor, reason: by.reason ?? null }),
      );
      if (!cancelled) return { ok: false, problem: 'not_cancellable' };
      const row = (await payments.byId(paymentId))!;
      await tell(row, 'cancelled', by);
      return { ok: true, value: paymentViewOf(row, calendar, at) };
    },

    async turnOnAutopay(
      borrowerId: string,
      loanId: string,
      request: AutopayRequest,
      from: RequestSource,
    ): Promise<Outcome<Autopay> | undefined> {
      const loan = await loans.one(borrowerId, loanId);
      if (!loan) return undefined;
      const account = await accounts.one(borrowerId, request.bankAccountId);
      if (!account) return undefined;
      if (!isOpenLoanStatus(loan.status)) return { ok: false, problem: 'loan_not_payable' };
      if (!usable(account)) return { ok: false, problem: 'bank_account_not_usable' };
      const shown = authorizationOf(account, request.locale, {
        kind: 'autopay',
        loanReference: loan.reference,
      });
      if (shown.sha256 !== request.authorizationSha256)
        return { ok: false, problem: 'authorization_outdated' };
      const at = now();
      await payments.forBorrower(borrowerId, (trx) =>
        payments.turnOnAutopay(trx, {
          loanId,
          borrowerId,
          bankAccountId: account.id,
          authorization: accepted(shown, at, from),
        }),
      );
      await autopayChanged(borrowerId, loan, 'on', account.account_last4, borrowerActor(borrowerId, from));
      return { ok: true, value: await autopayView(loan, at) };
    },

    async turnOffAutopay(borrowerId: string, loanId: string, by: PaymentActor): Promise<Autopay | undefined> {
      const loan = await loans.one(borrowerId, loanId);
      if (!loan) return undefined;
      const wasOn = await payments.forBorrower(borrowerId, (trx) =>
        payments.turnOffAutopay(trx, loanId, by.reason ?? 'turned off by the borrower'),
      );
      if (wasOn) await autopayChanged(borrowerId, loan, 'off', null, by);
      return autopayView(loan, now());
    },
  };
}

export type LoanPaymentService = ReturnType<typeof loanPayments>;
