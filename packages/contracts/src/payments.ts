import { z } from 'zod';
import { PAYMENT_ERROR_CODES, STEP_UP_REQUIRED } from './api-errors.js';
import { AccountNumberSchema, RoutingNumberSchema } from './bank-routing.js';
import { endpoint } from './endpoint.js';
import { LocaleSchema } from './locale-schema.js';
import { CalendarDateSchema } from './loans.js';
import { multiLineText, singleLineText } from './text.js';

// Paying a loan by ACH debit from the borrower's verified business bank account: the accounts, a
// one-time payment, autopay, and what operators do with the lender's bank files. Money in whole cents.

/** A bank account's state: micro-deposits on their way or waiting for the amounts, then verified. */
export const BANK_ACCOUNT_STATUSES = [
  'pending_verification',
  'verified',
  /** Three wrong tries, or the micro-deposits came back: support can help. */
  'failed',
  /** A debit came back for a reason about the account (closed, not authorized): verify it again. */
  'disabled',
] as const;
export type BankAccountStatus = (typeof BANK_ACCOUNT_STATUSES)[number];

export const BANK_ACCOUNT_TYPES = ['checking', 'savings'] as const;

/** Wrong tries at the two micro-deposit amounts before the account is refused. */
export const MICRO_DEPOSIT_TRIES = 3;
/** How many bank accounts a borrower may keep at once. */
export const MAX_BANK_ACCOUNTS = 5;

export const BankAccountIdSchema = z.uuid('accountId must be a bank account id (UUID)');
export const PaymentIdSchema = z.uuid('paymentId must be a payment id (UUID)');

/** A bank account as it is shown: never its number, only the last four digits. */
export const BankAccountSchema = z.object({
  id: z.string(),
  holderName: z.string(),
  /** From the lender's routing directory; null for a routing number it does not list. */
  bankName: z.string().nullable(),
  routingNumber: z.string(),
  last4: z.string(),
  type: z.enum(BANK_ACCOUNT_TYPES),
  status: z.enum(BANK_ACCOUNT_STATUSES),
  /** Whether the micro-deposits have gone to the bank (the borrower can look for them). */
  microDepositsSent: z.boolean(),
  /** Tries left at the amounts (pending verification only). */
  triesLeft: z.number().int().nonnegative(),
  /** The return code that disabled it (RETURN_REASONS says it in words). */
  returnCode: z.string().nullable(),
  createdAt: z.string(),
});
export type BankAccount = z.infer<typeof BankAccountSchema>;

export const BankAccountListSchema = z.object({ accounts: z.array(BankAccountSchema) });

const HolderNameSchema = singleLineText()
  .trim()
  .min(1, 'Enter the name on the account.')
  .max(22, 'The name on the account must be at most 22 characters.');

export const AddBankAccountRequestSchema = z
  .strictObject({
    holderName: HolderNameSchema,
    routingNumber: RoutingNumberSchema,
    accountNumber: AccountNumberSchema,
    accountNumberAgain: singleLineText().max(17),
    type: z.enum(BANK_ACCOUNT_TYPES, 'Choose checking or savings.'),
  })
  .refine((account) => account.accountNumber === account.accountNumberAgain, {
    message: 'The account numbers don’t match.',
    path: ['accountNumberAgain'],
  });
export type AddBankAccountRequest = z.infer<typeof AddBankAccountRequestSchema>;

const MicroAmount = z
  .number('Enter an amount in cents, 1 to 99.')
  .int('Enter an amount in cents, 1 to 99.')
  .min(1, 'Enter an amount in cents, 1 to 99.')
  .max(99, 'Enter an amount in cents, 1 to 99.');
export const VerifyBankAccountRequestSchema = z.strictObject({
  firstAmountCents: MicroAmount,
  secondAmountCents: MicroAmount,
});
export type VerifyBankAccountRequest = z.infer<typeof VerifyBankAccountRequestSchema>;

/**
 * A payment's state: scheduled (cancellable until its cut-off), pending (sent to the bank), settled
 * (applied to the loan), returned (the bank sent it back), or cancelled.
 */
export const PAYMENT_STATUSES = ['scheduled', 'pending', 'settled', 'returned', 'cancelled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PaymentSchema = z.object({
  id: z.string(),
  /** What the borrower quotes to support, and what their bank statement shows. */
  reference: z.string(),
  loanId: z.string(),
  amountCents: z.number().int().positive(),
  /** The day the money leaves the account (a banking day). */
  effectiveOn: CalendarDateSchema,
  status: z.enum(PAYMENT_STATUSES),
  kind: z.enum(['one_time', 'autopay']),
  bankAccount: z.object({ id: z.string(), bankName: z.string().nullable(), last4: z.string() }),
  /** Until when a scheduled payment can be cancelled; null once it cannot. */
  cancellableUntil: z.string().nullable(),
  /** A returned payment's return code (RETURN_REASONS says it in words). */
  returnCode: z.string().nullable(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export type Payment = z.infer<typeof PaymentSchema>;

export const AutopaySchema = z.object({
  enabled: z.boolean(),
  bankAccount: z.object({ id: z.string(), bankName: z.string().nullable(), last4: z.string() }).nullable(),
  /** The next instalment it will pay: the debit's day (the due day, or the banking day after). */
  nextDebit: z.object({ on: CalendarDateSchema, amountCents: z.number().int().positive() }).nullable(),
  /** Until when autopay can be turned off before the next debit. */
  changeBy: z.string().nullable(),
});
export type Autopay = z.infer<typeof AutopaySchema>;

/** What a borrower can pay on a loan today, and from which days. */
export const PaymentOptionsSchema = z.object({
  pastDueCents: z.number().int().nonnegative().nullable(),
  nextInstalment: z
    .object({ dueOn: CalendarDateSchema, amountCents: z.number().int().positive() })
    .nullable(),
  /** The balance less what is already on its way. */
  payoffCents: z.number().int().nonnegative(),
  earliestDate: CalendarDateSchema,
  latestDate: CalendarDateSchema,
  /** The banking days from earliest to latest (no weekend or Federal Reserve holiday). */
  bankingDays: z.array(CalendarDateSchema),
  maxPaymentCents: z.number().int().positive(),
  /** The lender's cut-off, in its time zone, e.g. 14:00 America/New_York. */
  cutoff: z.object({ time: z.string(), timeZone: z.string() }),
});
export type PaymentOptions = z.infer<typeof PaymentOptionsSchema>;

export const LoanPaymentsSchema = z.object({
  options: PaymentOptionsSchema,
  payments: z.array(PaymentSchema),
  autopay: AutopaySchema,
  /** The lender as the authorization names it. */
  lender: z.object({ name: z.string(), supportPhone: z.string() }),
});
export type LoanPayments = z.infer<typeof LoanPaymentsSchema>;

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex');

export const MakePaymentRequestSchema = z.strictObject({
  /** The language the authorization was shown in. */
  locale: LocaleSchema,
  /** One per submission: the same key again answers with the first payment, never a second one. */
  idempotencyKey: z.uuid('idempotencyKey must be a UUID'),
  amountCents: z
    .number('Enter an amount.')
    .int('Enter an amount in cents.')
    .min(100, 'The least you can pay is $1.00.'),
  effectiveOn: CalendarDateSchema,
  bankAccountId: singleLineText().max(64),
  /** The fingerprint of the authorization text the borrower accepted (paymentAuthorizationText). */
  authorizationSha256: Sha256Hex,
  authorized: z.literal(true, 'Accept the authorization to pay.'),
});
export type MakePaymentRequest = z.infer<typeof MakePaymentRequestSchema>;

export const CancelPaymentRequestSchema = z.strictObject({}).optional();

export const AutopayRequestSchema = z.strictObject({
  locale: LocaleSchema,
  bankAccountId: singleLineText().max(64),
  authorizationSha256: Sha256Hex,
  authorized: z.literal(true, 'Accept the authorization to turn on autopay.'),
});
export type AutopayRequest = z.infer<typeof AutopayRequestSchema>;

/**
 * What a return code means for the borrower, and what it does: `account` codes disable the account
 * (verify it again, or add another), `unauthorized` ones disable it and turn autopay off.
 */
export const RETURN_REASONS: Record<string, { words: string; effect: 'none' | 'account' | 'unauthorized' }> =
  {
    R01: { words: 'There wasn’t enough money in the account.', effect: 'none' },
    R09: { words: 'The money in the account wasn’t available yet.', effect: 'none' },
    R02: { words: 'The account is closed.', effect: 'account' },
    R03: { words: 'The bank couldn’t find the account.', effect: 'account' },
    R04: { words: 'The account number isn’t valid.', effect: 'account' },
    R16: { words: 'The account is frozen.', effect: 'account' },
    R20: { words: 'The account doesn’t allow this kind of payment.', effect: 'account' },
    R08: { words: 'A stop payment was placed on it.', effect: 'unauthorized' },
    R05: { words: 'The bank says the account isn’t a business account.', effect: 'unauthorized' },
    R07: { words: 'The account holder withdrew the authorization.', effect: 'unauthorized' },
    R10: { words: 'The account holder told their bank it wasn’t authorized.', effect: 'unauthorized' },
    R11: { words: 'The account holder told their bank it wasn’t authorized.', effect: 'unauthorized' },
    R29: { words: 'The business told its bank it wasn’t authorized.', effect: 'unauthorized' },
  };
/** Any other return code. */
export const OTHER_RETURN_REASON = { words: 'The bank returned the payment.', effect: 'account' } as const;
export const returnReasonOf = (code: string) => RETURN_REASONS[code] ?? OTHER_RETURN_REASON;

const NOT_FOUND = { 404: ['not_found'] } as const;
const P = PAYMENT_ERROR_CODES;

/** The signed-in borrower's bank accounts and payments. Another borrower's ids answer 404. */
export const paymentEndpoints = {
  bankAccounts: endpoint({
    method: 'GET',
    path: '/api/borrower/bank-accounts',
    tag: 'payments',
    summary: "The borrower's bank accounts (last four digits only)",
    access: 'borrower',
    responses: { 200: BankAccountListSchema },
  }),
  /** Needs a recent sign-in; micro-deposits go out with the lender's next file. */
  addBankAccount: endpoint({
    method: 'POST',
    path: '/api/borrower/bank-accounts',
    tag: 'payments',
    summary: 'Add a business bank account (needs a recent sign-in); micro-deposits verify it',
    access: 'borrower',
    body: AddBankAccountRequestSchema,
    responses: { 201: BankAccountSchema },
    errors: { 403: [STEP_UP_REQUIRED], 409: [P.accountExists, P.tooManyAccounts] },
  }),
  verifyBankAccount: endpoint({
    method: 'POST',
    path: '/api/borrower/bank-accounts/:accountId/verification',
    tag: 'payments',
    summary: 'Verify a bank account with the two micro-deposit amounts',
    access: 'borrower',
    body: VerifyBankAccountRequestSchema,
    responses: { 200: BankAccountSchema },
    errors: { ...NOT_FOUND, 409: [P.notVerifiable, P.wrongAmounts] },
  }),
  /**
   * A disabled account (a return spoke against it) verified again: new micro-deposits go with the next
   * file. Needs a recent sign-in, as adding one does.
   */
  reverifyBankAccount: endpoint({
    method: 'POST',
    path: '/api/borrower/bank-accounts/:accountId/reverification',
    tag: 'payments',
    summary: 'Verify a disabled bank account again with new micro-deposits (needs a recent sign-in)',
    access: 'borrower',
    responses: { 200: BankAccountSchema },
    errors: { ...NOT_FOUND, 403: [STEP_UP_REQUIRED], 409: [P.notVerifiable] },
  }),
  /** Needs a recent sign-in; refused while a payment from it is on its way. */
  removeBankAccount: endpoint({
    method: 'POST',
    path: '/api/borrower/bank-accounts/:accountId/removal',
    tag: 'payments',
    summary: 'Remove a bank account (needs a recent sign-in)',
    access: 'borrower',
    responses: { 200: BankAccountListSchema },
    errors: { ...NOT_FOUND, 403: [STEP_UP_REQUIRED], 409: [P.accountInUse] },
  }),
  loanPayments: endpoint({
    method: 'GET',
    path: '/api/borrower/loans/:loanId/payments',
    tag: 'payments',
    summary: "A loan's payments, autopay and what can be paid from which day",
    access: 'borrower',
    responses: { 200: LoanPaymentsSchema },
    errors: NOT_FOUND,
  }),
  makePayment: endpoint({
    method: 'POST',
    path: '/api/borrower/loans/:loanId/payments',
    tag: 'payments',
    summary: 'Schedule a payment (the same idempotency key again: the first payment)',
    access: 'borrower',
    body: MakePaymentRequestSchema,
    responses: { 201: PaymentSchema },
    errors: {
      ...NOT_FOUND,
      409: [
        P.accountNotUsable,
        P.overPayoff,
        P.overLimit,
        P.overDailyLimit,
        P.dateUnavailable,
        P.authorizationOutdated,
        P.keyReused,
        P.loanNotPayable,
      ],
    },
  }),
  cancelPayment: endpoint({
    method: 'POST',
    path: '/api/borrower/loans/:loanId/payments/:paymentId/cancellation',
    tag: 'payments',
    summary: 'Cancel a scheduled payment (until its cut-off)',
    access: 'borrower',
    responses: { 200: PaymentSchema },
    errors: { ...NOT_FOUND, 409: [P.notCancellable] },
  }),
  turnOnAutopay: endpoint({
    method: 'PUT',
    path: '/api/borrower/loans/:loanId/autopay',
    tag: 'payments',
    summary: 'Turn autopay on (or move it to another account): each instalment on its due day',
    access: 'borrower',
    body: AutopayRequestSchema,
    responses: { 200: AutopaySchema },
    errors: { ...NOT_FOUND, 409: [P.accountNotUsable, P.authorizationOutdated, P.loanNotPayable] },
  }),
  turnOffAutopay: endpoint({
    method: 'POST',
    path: '/api/borrower/loans/:loanId/autopay/off',
    tag: 'payments',
    summary: 'Turn autopay off (a debit already sent to the bank still goes)',
    access: 'borrower',
    responses: { 200: AutopaySchema },
    errors: NOT_FOUND,
  }),
};

/** A NACHA file as operators see it: its control totals, never its entries. */
export const PaymentFileSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  creationDay: z.string(),
  fileIdModifier: z.string(),
  /** The name to hand it to the bank under. */
  fileName: z.string(),
  batchCount: z.number().int(),
  entryCount: z.number().int(),
  entryHash: z.string(),
  debitTotalCents: z.number().int(),
  creditTotalCents: z.number().int(),
  sha256: z.string(),
  createdBy: z.string(),
  exportedAt: z.string().nullable(),
  settledAt: z.string().nullable(),
});
export type PaymentFileView = z.infer<typeof PaymentFileSchema>;

export const PaymentRunRequestSchema = z.strictObject({
  /** Send debits effective through this day too (by default: those the bank needs today). */
  through: CalendarDateSchema.optional(),
});

export const ExportPaymentFileRequestSchema = z.strictObject({
  /** A second export of the same file (it was lost on its way): recorded with the reason given. */
  force: z.boolean().default(false),
});

/** The bank's returns file, as read from the operator's disk. */
export const ReturnsFileRequestSchema = z.strictObject({
  content: multiLineText('The returns file is not a NACHA file.')
    .min(1, 'The returns file is empty.')
    .max(5_000_000, 'The returns file is too large.'),
});

export const ReturnOutcomeSchema = z.object({
  originalTrace: z.string(),
  returnCode: z.string(),
  amountCents: z.number().int(),
  /** What it matched: a payment, a micro-deposit, a return read before, or nothing (look into it). */
  matched: z.enum(['payment', 'verification', 'already_read']).nullable(),
  paymentReference: z.string().nullable(),
});
export type ReturnOutcome = z.infer<typeof ReturnOutcomeSchema>;

/** A borrower's payments as staff see them: accounts (masked), payments, autopay of each loan. */
export const BorrowerPaymentsSchema = z.object({
  accounts: z.array(BankAccountSchema),
  payments: z.array(
    PaymentSchema.extend({
      loanReference: z.string(),
      cancelReason: z.string().nullable(),
      /** Who cancelled it: the borrower, staff (or an operator), or the portal (its account failed). */
      cancelledBy: z.enum(['borrower', 'staff', 'portal']).nullable(),
    }),
  ),
  autopays: z.array(
    z.object({
      loanId: z.string(),
      loanReference: z.string(),
      enabled: z.boolean(),
      last4: z.string().nullable(),
    }),
  ),
});
export type BorrowerPaymentsView = z.infer<typeof BorrowerPaymentsSchema>;

export const StaffCancelPaymentRequestSchema = z.strictObject({
  reason: singleLineText()
    .trim()
    .min(1, 'Give the reason for cancelling.')
    .max(500, 'The reason must be at most 500 characters.'),
});

/** The lender's side: files for the bank, settlement, returns, and a borrower's payments for staff. */
export const operatorPaymentEndpoints = {
  run: endpoint({
    method: 'POST',
    path: '/api/operator/payments/files',
    tag: 'operators',
    summary: 'Run payments now: autopay debits, reminders, and a file of everything due (null: nothing due)',
    access: 'operator',
    body: PaymentRunRequestSchema,
    responses: { 200: z.object({ file: PaymentFileSchema.nullable() }) },
  }),
  files: endpoint({
    method: 'GET',
    path: '/api/operator/payments/files',
    tag: 'operators',
    summary: 'The latest payment files, newest first',
    access: 'operator',
    responses: { 200: z.object({ files: z.array(PaymentFileSchema) }) },
  }),
  exportFile: endpoint({
    method: 'POST',
    path: '/api/operator/payments/files/:fileId/export',
    tag: 'operators',
    summary: "A file's bytes for the bank (once; again only when forced)",
    access: 'operator',
    body: ExportPaymentFileRequestSchema,
    responses: { 200: z.object({ file: PaymentFileSchema, content: z.string() }) },
    errors: { ...NOT_FOUND, 409: ['already_exported'] },
  }),
  settleFile: endpoint({
    method: 'POST',
    path: '/api/operator/payments/files/:fileId/settlement',
    tag: 'operators',
    summary: 'The bank settled the file: post its pending payments to their loans',
    access: 'operator',
    responses: { 200: z.object({ settled: z.number().int() }) },
    errors: NOT_FOUND,
  }),
  returns: endpoint({
    method: 'POST',
    path: '/api/operator/payments/returns',
    tag: 'operators',
    summary: "Read the bank's returns file: mark each returned payment and what follows",
    access: 'operator',
    body: ReturnsFileRequestSchema,
    responses: { 200: z.object({ returns: z.array(ReturnOutcomeSchema) }) },
  }),
  borrowerPayments: endpoint({
    method: 'GET',
    path: '/api/operator/borrowers/:borrowerId/payments',
    tag: 'operators',
    summary: "A borrower's bank accounts (masked), payments and autopay",
    access: 'operator',
    staff: { role: 'support' },
    responses: { 200: BorrowerPaymentsSchema },
    errors: NOT_FOUND,
  }),
  cancelPayment: endpoint({
    method: 'POST',
    path: '/api/operator/payments/:paymentId/cancellation',
    tag: 'operators',
    summary: 'Cancel a scheduled payment for the borrower, with the reason (until its cut-off)',
    access: 'operator',
    staff: { role: 'support', stepUp: true },
    body: StaffCancelPaymentRequestSchema,
    responses: { 200: PaymentSchema },
    errors: { ...NOT_FOUND, 409: [P.notCancellable] },
  }),
};
