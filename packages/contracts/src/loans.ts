import { z } from 'zod';
import { isStorableInstant } from './instants.js';
import { CHECKOUT_ERROR_CODES, SIGNING_ERROR_CODES, STEP_UP_REQUIRED } from './api-errors.js';
import { endpoint } from './endpoint.js';
import { singleLineText } from './text.js';

// Loans as a borrower sees them, and their document checkout. Money is in whole cents.

/** Spec section 3: the loan status values. HIDDEN loans are never shown to the borrower. */
export const LOAN_STATUSES = ['ACTIVE', 'PAST DUE', 'PAID', 'CLOSED LOST', 'HIDDEN'] as const;
export const LoanStatusSchema = z.enum(LOAN_STATUSES);
export type LoanStatus = z.infer<typeof LoanStatusSchema>;

/** Statuses a borrower sees, grouped as the home page shows them. */
export const OPEN_LOAN_STATUSES = ['ACTIVE', 'PAST DUE'] as const satisfies readonly LoanStatus[];
export const CLOSED_LOAN_STATUSES = ['PAID', 'CLOSED LOST'] as const satisfies readonly LoanStatus[];
export type VisibleLoanStatus = (typeof OPEN_LOAN_STATUSES)[number] | (typeof CLOSED_LOAN_STATUSES)[number];

/** An open loan (ACTIVE, PAST DUE): the one kind a borrower pays toward. */
export const isOpenLoanStatus = (status: string) =>
  (OPEN_LOAN_STATUSES as readonly string[]).includes(status);

/** Only loans in these statuses can be checked out (their documents reviewed and signed). */
export const CHECKOUT_LOAN_STATUSES = ['ACTIVE'] as const satisfies readonly LoanStatus[];

const LOAN_NOT_FOUND = { 404: ['not_found'] } as const;

// Path ids: a malformed one names no loan or document of the borrower, so it answers 404, not 400.
export const LoanIdSchema = z.uuid('loanId must be a loan id (UUID)');
export const DocumentIdSchema = z.uuid('documentId must be a document id (UUID)');

const Cents = z.number().int().nonnegative();
/** A calendar date, YYYY-MM-DD (no time zone: a due date is a day), of the years 1 to 9999. */
export const CalendarDateSchema = z.iso
  .date('must be a date, YYYY-MM-DD')
  .refine((day) => isStorableInstant(Date.parse(day)), 'must be a date of the years 0001 to 9999');

export const CheckoutStatusSchema = z.enum(['not_started', 'in_progress', 'completed']);
export type CheckoutStatus = z.infer<typeof CheckoutStatusSchema>;

/** What a past-due loan owes: its unpaid past instalments, late since the oldest one's due day. */
export const OverdueSchema = z.object({
  amountCents: Cents,
  daysLate: z.number().int().positive(),
  since: CalendarDateSchema,
  instalments: z.number().int().positive(),
});
export type Overdue = z.infer<typeof OverdueSchema>;

export const LoanSummarySchema = z.object({
  id: z.string(),
  /** The lender's loan number, e.g. LN-204518. */
  reference: z.string(),
  product: z.string(),
  status: LoanStatusSchema.exclude(['HIDDEN']),
  amountCents: Cents,
  balanceCents: Cents,
  nextPayment: z.object({ dueOn: CalendarDateSchema, amountCents: Cents }).nullable(),
  /** What is past due today, from the payment schedule; null when nothing is. */
  overdue: OverdueSchema.nullable(),
  checkout: z.object({
    status: CheckoutStatusSchema,
    startedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    /** The loan's documents, and how many are done (reviewed, and signed where a signature is needed). */
    documents: z.number().int().nonnegative(),
    documentsDone: z.number().int().nonnegative(),
  }),
});
export type LoanSummary = z.infer<typeof LoanSummarySchema>;

/** to_review -> reviewed -> signed (documents that need no signature stop at reviewed). */
export const DocumentStateSchema = z.enum(['to_review', 'reviewed', 'signed']);
export type DocumentState = z.infer<typeof DocumentStateSchema>;

export const LoanDocumentSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** The document's text, shown when the borrower reviews it. */
  body: z.string(),
  requiresSignature: z.boolean(),
  state: DocumentStateSchema,
  reviewedAt: z.string().nullable(),
  signedAt: z.string().nullable(),
  /** The name the borrower typed to sign. */
  signatureName: z.string().nullable(),
});
export type LoanDocument = z.infer<typeof LoanDocumentSchema>;

/**
 * An instalment of the payment schedule: paid (on paidOn), past due (its day has passed unpaid) or
 * upcoming (due today or later). Days are the lender's calendar days (UTC).
 */
export const InstalmentStateSchema = z.enum(['paid', 'past_due', 'upcoming']);
export type InstalmentState = z.infer<typeof InstalmentStateSchema>;

export const InstalmentSchema = z.object({
  dueOn: CalendarDateSchema,
  amountCents: Cents,
  paidOn: CalendarDateSchema.nullable(),
  state: InstalmentStateSchema,
});
export type Instalment = z.infer<typeof InstalmentSchema>;

export const LoanDetailSchema = LoanSummarySchema.extend({
  documents: z.array(LoanDocumentSchema),
  /** The payment schedule, oldest first. */
  instalments: z.array(InstalmentSchema),
});
export type LoanDetail = z.infer<typeof LoanDetailSchema>;

export const LoanListSchema = z.object({ loans: z.array(LoanSummarySchema) });
export type LoanList = z.infer<typeof LoanListSchema>;

/** The signature the borrower adopts: their full name as on their account (see signatureNameMatches). */
export const SignatureNameSchema = singleLineText()
  .trim()
  .min(1, 'Type your full name to sign.')
  .max(120, 'Your name must be at most 120 characters.');

export const SignDocumentRequestSchema = z.object({
  /** The borrower's full name, typed as their signature. */
  signatureName: SignatureNameSchema,
  /** The borrower ticked "I have read and agree". */
  agreed: z.literal(true, 'Confirm that you have read and agree to the document.'),
});
export type SignDocumentRequest = z.infer<typeof SignDocumentRequestSchema>;

/** "Sign all": the documents of the summary the borrower saw, signed with one adopted signature. */
export const SignDocumentsRequestSchema = z.object({
  signatureName: SignatureNameSchema,
  documentIds: z
    .array(DocumentIdSchema)
    .min(1, 'Choose the documents to sign.')
    .max(50)
    .refine((ids) => new Set(ids).size === ids.length, 'Each document once.'),
  agreed: z.literal(true, 'Confirm that you have read and agree to the documents.'),
});
export type SignDocumentsRequest = z.infer<typeof SignDocumentsRequestSchema>;

/** A signature's refusals: the checkout's state, the name, the consent to sign electronically. */
const SIGNING_ERRORS = {
  ...LOAN_NOT_FOUND,
  400: [SIGNING_ERROR_CODES.nameMismatch],
  403: [STEP_UP_REQUIRED],
  409: [...CHECKOUT_ERROR_CODES, SIGNING_ERROR_CODES.consentRequired, SIGNING_ERROR_CODES.noAccountName],
} as const;

/**
 * The signed-in borrower's loans and their document checkout. Ids in paths are taken as any text: a
 * malformed one names no loan, so it gets the unknown id's 404, and so does another borrower's loan.
 */
export const loanEndpoints = {
  loans: endpoint({
    method: 'GET',
    path: '/api/borrower/loans',
    tag: 'borrower',
    summary: "The signed-in borrower's loans (open ones first; HIDDEN ones never)",
    access: 'borrower',
    responses: { 200: LoanListSchema },
  }),
  loan: endpoint({
    method: 'GET',
    path: '/api/borrower/loans/:loanId',
    tag: 'borrower',
    summary: "One of the borrower's loans, with its documents",
    access: 'borrower',
    responses: { 200: LoanDetailSchema },
    errors: LOAN_NOT_FOUND,
  }),
  /** Starts the loan's document checkout (again: no change). */
  startCheckout: endpoint({
    method: 'POST',
    path: '/api/borrower/loans/:loanId/checkout',
    tag: 'borrower',
    summary: "Start the loan's document checkout (again: no change)",
    access: 'borrower',
    responses: { 200: LoanDetailSchema },
    errors: { ...LOAN_NOT_FOUND, 409: CHECKOUT_ERROR_CODES },
  }),
  reviewDocument: endpoint({
    method: 'POST',
    path: '/api/borrower/loans/:loanId/documents/:documentId/review',
    tag: 'borrower',
    summary: 'Mark a document of the checkout reviewed',
    access: 'borrower',
    responses: { 200: LoanDetailSchema },
    errors: { ...LOAN_NOT_FOUND, 409: CHECKOUT_ERROR_CODES },
  }),
  /** Signing needs a recent sign-in (step-up). */
  signDocument: endpoint({
    method: 'POST',
    path: '/api/borrower/loans/:loanId/documents/:documentId/sign',
    tag: 'borrower',
    summary: "Sign a reviewed document with the account's name, as the borrower typed it",
    access: 'borrower',
    body: SignDocumentRequestSchema,
    responses: { 200: LoanDetailSchema },
    errors: SIGNING_ERRORS,
  }),
  /** "Sign all": every listed document, in one step, or none. Needs a recent sign-in too. */
  signDocuments: endpoint({
    method: 'POST',
    path: '/api/borrower/loans/:loanId/signatures',
    tag: 'borrower',
    summary: 'Sign the listed reviewed documents at once with one adopted signature (all or none)',
    access: 'borrower',
    body: SignDocumentsRequestSchema,
    responses: { 200: LoanDetailSchema },
    errors: SIGNING_ERRORS,
  }),
};
