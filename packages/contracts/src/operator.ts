import { z } from 'zod';
import {
  AccountSessionListSchema,
  EndedSessionsSchema,
  OperatorEndAllSessionsRequestSchema,
  OperatorSessionsQuerySchema,
} from './account.js';
import { OperatorActivityQuerySchema, SecurityActivityPageSchema } from './activity.js';
import { LocaleSchema } from './locale-schema.js';
import { API_ERROR_CODES } from './api-errors.js';
import { EmailSchema } from './credentials.js';
import { endpoint } from './endpoint.js';
import { CalendarDateSchema, InstalmentSchema, LoanStatusSchema } from './loans.js';
import { singleLineText } from './text.js';

// The operators' API (service credential), driven by `npm run cli`. Money is in whole cents.

const Name = (what: string) =>
  singleLineText().trim().min(1, `${what} is required.`).max(80, `${what} must be at most 80 characters.`);

/**
 * The borrower an operator's call names by their address: support's actions (unlock, reset second
 * factors, the e-mail sent to them) and data rights (export, erasure).
 */
export const BorrowerEmailSchema = z.strictObject({ email: EmailSchema });

export const InviteBorrowerRequestSchema = z.object({
  email: EmailSchema,
  firstName: Name('First name'),
  lastName: Name('Last name'),
  /** The language of the invitation e-mail; English unless given. */
  locale: LocaleSchema.optional(),
});
export type InviteBorrowerRequest = z.infer<typeof InviteBorrowerRequestSchema>;
export const InviteBorrowerResponseSchema = z.object({ borrowerId: z.string(), expiresAt: z.string() });
export type InviteBorrowerResponse = z.infer<typeof InviteBorrowerResponseSchema>;

const Cents = z
  .number('must be an amount in cents')
  .int('must be whole cents')
  .nonnegative('must not be negative');
export const LoanReferenceSchema = singleLineText()
  .trim()
  .regex(
    /^[A-Z0-9][A-Z0-9-]{2,31}$/,
    'reference must be 3-32 capital letters, digits or dashes, e.g. LN-204518',
  );

export const LoanTermsSchema = z.object({
  product: singleLineText().trim().min(1, 'product is required').max(80),
  amountCents: Cents,
  balanceCents: Cents,
  status: LoanStatusSchema,
  nextPayment: z.object({ dueOn: CalendarDateSchema, amountCents: Cents }).nullable(),
});

export type LoanTerms = z.infer<typeof LoanTermsSchema>;

const CLOSED_STATUSES = ['PAID', 'CLOSED LOST'];
const OPEN_STATUSES = ['ACTIVE', 'PAST DUE'];

/**
 * Terms that contradict each other, each said as the operator fixes it: a borrower would read them
 * side by side (a paid loan with a payment due, a payment larger than what is owed). Refused when a
 * loan is added, and when a change would leave a loan so.
 */
export function contradictionsOf(terms: LoanTerms): string[] {
  const { status, amountCents, balanceCents, nextPayment } = terms;
  const found: string[] = [];
  if (balanceCents > amountCents) found.push('balance must not be more than the amount lent');
  if (status === 'PAID' && balanceCents > 0)
    found.push('a PAID loan has no balance left: give a balance of 0');
  if (CLOSED_STATUSES.includes(status) && nextPayment)
    found.push(`a ${status} loan has no next payment: leave it out`);
  if (OPEN_STATUSES.includes(status) && balanceCents === 0)
    found.push(
      `${status === 'ACTIVE' ? 'an ACTIVE' : 'a PAST DUE'} loan has a balance: a loan paid off is PAID`,
    );
  if (nextPayment && nextPayment.amountCents === 0) found.push('the next payment must be more than zero');
  if (nextPayment && nextPayment.amountCents > balanceCents)
    found.push('the next payment must not be more than the balance');
  return found;
}

export const AddLoanRequestSchema = LoanTermsSchema.extend({
  borrowerEmail: EmailSchema,
  reference: LoanReferenceSchema,
}).superRefine((terms, context) => {
  for (const message of contradictionsOf(terms)) context.addIssue({ code: 'custom', message });
});
export type AddLoanRequest = z.infer<typeof AddLoanRequestSchema>;

/** Only the terms given change. */
export const UpdateLoanRequestSchema = LoanTermsSchema.partial().refine(
  (terms) => Object.keys(terms).length > 0,
  'Give at least one term to change.',
);
export type UpdateLoanRequest = z.infer<typeof UpdateLoanRequestSchema>;
export const LoanReferenceParamsSchema = z.object({ reference: LoanReferenceSchema });

/** An instalment as the lender's book records it: due on a day, paid on a day or not yet. */
export const RecordInstalmentRequestSchema = z.object({
  dueOn: CalendarDateSchema,
  amountCents: Cents.positive('must be more than zero'),
  paidOn: CalendarDateSchema.nullable().default(null),
});
export type RecordInstalmentRequest = z.input<typeof RecordInstalmentRequestSchema>;

export const LoanScheduleSchema = z.object({ reference: z.string(), instalments: z.array(InstalmentSchema) });
export type LoanSchedule = z.infer<typeof LoanScheduleSchema>;

export const OperatorLoanSchema = LoanTermsSchema.extend({
  id: z.string(),
  reference: z.string(),
  borrowerEmail: z.string(),
  documents: z.number().int(),
  /**
   * What the borrower would see amiss with the loan as it is, its schedule included (a PAST DUE loan
   * with no missed instalment recorded): said to the operator, not refused, as the schedule may follow.
   */
  warnings: z.array(z.string()),
});
export type OperatorLoan = z.infer<typeof OperatorLoanSchema>;

export const BorrowerListSchema = z.object({
  borrowers: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      /** invited: an invitation is out; registered: has signed in or registered. */
      state: z.enum(['invited', 'registered', 'not_registered']),
      loans: z.number().int(),
      createdAt: z.string(),
    }),
  ),
});
export type BorrowerList = z.infer<typeof BorrowerListSchema>;

const SEARCH_MESSAGE = 'Search with 2 to 100 characters of a name, an e-mail address or a loan reference.';
/** ?q=: the borrowers whose name or e-mail address contains it, or one of whose loans' reference starts with it. */
export const BorrowerSearchQuerySchema = z.strictObject({
  q: singleLineText(SEARCH_MESSAGE).trim().min(2, SEARCH_MESSAGE).max(100, SEARCH_MESSAGE).optional(),
});
/** A search answers at most this many borrowers. */
export const BORROWER_SEARCH_LIMIT = 50;

export const SigningKeyRotationRequestSchema = z.object({
  /** After a leak: retire every earlier key at once, which ends every borrower's session. */
  retireEarlierKeysNow: z.boolean().default(false),
});
export type SigningKeyRotationRequest = z.input<typeof SigningKeyRotationRequestSchema>;

export const SigningKeyRotationSchema = z.object({
  /** The key that signs access tokens from now on. */
  activeKid: z.string(),
  /** Every key that still verifies (the public keys), the new one included. */
  verifyingKids: z.array(z.string()),
  /** Keys deleted by this rotation. */
  retiredKids: z.array(z.string()),
});
export type SigningKeyRotation = z.infer<typeof SigningKeyRotationSchema>;

export const SecretsKeyRotationSchema = z.object({
  /** The key (the first of SECRETS_KEYS) that now seals every secret kept in the database. */
  activeKeyId: z.string(),
  /** Secrets sealed again by this rotation: those another key, or none, had sealed. */
  resealed: z.number().int(),
});
export type SecretsKeyRotation = z.infer<typeof SecretsKeyRotationSchema>;

/**
 * A message the outbox gave up on, as operators see it: who, what, how often tried and why it failed,
 * never its text (its links are one-time tokens).
 */
export const DeadMailSchema = z.object({
  id: z.string(),
  recipient: z.string(),
  kind: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  diedAt: z.string(),
  /** False where the message died before dead ones kept their text: nothing to send again. */
  resendable: z.boolean(),
});
export type DeadMail = z.infer<typeof DeadMailSchema>;
/** The latest DEAD_MAIL_LISTED to give up, first. */
export const DEAD_MAIL_LISTED = 200;
export const DeadMailListSchema = z.object({ messages: z.array(DeadMailSchema) });
/** A message to one address and where its delivery is (never its text): support's "did it go out?". */
export const SentMailSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.enum(['pending', 'sending', 'sent', 'dead']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export const SENT_MAIL_LISTED = 100;
export const MailIdSchema = z.uuid('must be a message id from npm run cli -- mail dead');
export const ResendDeadMailRequestSchema = z.union([
  z.object({ ids: z.array(MailIdSchema).min(1).max(1000) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type ResendDeadMailRequest = z.infer<typeof ResendDeadMailRequestSchema>;
/** The ids queued again (dead ones with their text; others named are left as they are). */
export const ResendDeadMailResponseSchema = z.object({ resent: z.array(z.string()) });

const NO_BORROWER = { 404: ['not_found'] } as const;

/** Operators' calls (service credential), driven by `npm run cli`. */
export const operatorEndpoints = {
  invitations: endpoint({
    method: 'POST',
    path: '/api/operator/invitations',
    tag: 'operators',
    summary: 'Invite a borrower to register: e-mails a registration link (service credential)',
    access: 'operator',
    body: InviteBorrowerRequestSchema,
    responses: { 201: InviteBorrowerResponseSchema },
    errors: { 409: [API_ERROR_CODES.alreadyRegistered] },
  }),
  loans: endpoint({
    method: 'POST',
    path: '/api/operator/loans',
    tag: 'operators',
    summary: 'Add a loan for the borrower with this e-mail address (created if there is none)',
    access: 'operator',
    body: AddLoanRequestSchema,
    responses: { 201: OperatorLoanSchema },
    errors: { 409: ['reference_taken'] },
  }),
  /** A malformed reference is answered 400 bad_request (LoanReferenceParamsSchema), an unknown one 404. */
  loan: endpoint({
    method: 'PATCH',
    path: '/api/operator/loans/:reference',
    tag: 'operators',
    summary: 'Change the terms of a loan (only the terms given)',
    access: 'operator',
    body: UpdateLoanRequestSchema,
    responses: { 200: OperatorLoanSchema },
    /** contradictory_terms: the loan's terms, changed, would contradict each other (contradictionsOf). */
    errors: { 400: ['contradictory_terms'], 404: ['not_found'] },
  }),
  /** Records an instalment of the loan's payment schedule (one per due day), paid or not. */
  loanInstalments: endpoint({
    method: 'POST',
    path: '/api/operator/loans/:reference/instalments',
    tag: 'operators',
    summary: "Record an instalment of a loan's payment schedule (one per due day: a new one, or a change)",
    access: 'operator',
    body: RecordInstalmentRequestSchema,
    responses: { 200: LoanScheduleSchema },
    errors: { 404: ['not_found'] },
  }),
  borrowers: endpoint({
    method: 'GET',
    path: '/api/operator/borrowers',
    tag: 'operators',
    summary:
      'Every borrower, or those a search finds (?q=: name, e-mail address, loan reference), with their registration state and number of loans',
    access: 'operator',
    staff: { role: 'support' },
    query: BorrowerSearchQuerySchema,
    responses: { 200: BorrowerListSchema },
  }),
  signingKeyRotations: endpoint({
    method: 'POST',
    path: '/api/operator/signing-key-rotations',
    tag: 'operators',
    summary: 'Rotate the signing key of access tokens (service credential)',
    access: 'operator',
    staff: { stepUp: true },
    body: SigningKeyRotationRequestSchema,
    responses: { 201: SigningKeyRotationSchema },
  }),
  /** After SECRETS_KEYS gained a new first key on every instance; then the old key can be dropped. */
  secretsKeyRotations: endpoint({
    method: 'POST',
    path: '/api/operator/secrets-key-rotations',
    tag: 'operators',
    summary: 'Seal every secret kept in the database with the first key of SECRETS_KEYS (service credential)',
    access: 'operator',
    staff: { stepUp: true },
    responses: { 201: SecretsKeyRotationSchema },
  }),
  /** ?email=: a borrower's active sessions. */
  sessions: endpoint({
    method: 'GET',
    path: '/api/operator/sessions',
    tag: 'operators',
    summary: "A borrower's active sign-in sessions, newest first",
    access: 'operator',
    staff: { role: 'support' },
    query: OperatorSessionsQuerySchema,
    responses: { 200: AccountSessionListSchema },
    errors: NO_BORROWER,
  }),
  /** An unknown, ended or malformed session id: 404. */
  endSession: endpoint({
    method: 'POST',
    path: '/api/operator/sessions/:sessionId/end',
    tag: 'operators',
    summary: 'End one sign-in session: its tokens on every instance and its identity-provider session',
    access: 'operator',
    staff: { role: 'support' },
    responses: { 200: EndedSessionsSchema },
    errors: { 404: ['not_found'] },
  }),
  /** Every session of the borrower named in the body. */
  endAllSessions: endpoint({
    method: 'POST',
    path: '/api/operator/sessions/end-all',
    tag: 'operators',
    summary: 'End every sign-in session of a borrower, and every identity-provider session of theirs',
    access: 'operator',
    staff: { role: 'support' },
    body: OperatorEndAllSessionsRequestSchema,
    responses: { 200: EndedSessionsSchema },
    errors: NO_BORROWER,
  }),
  deadMail: endpoint({
    method: 'GET',
    path: '/api/operator/mail/dead',
    tag: 'operators',
    summary: 'E-mail that gave up after its last attempt, the latest first (no message text)',
    access: 'operator',
    responses: { 200: DeadMailListSchema },
  }),
  /** ?email=: the messages to that address, newest first, with their delivery state. */
  sentMail: endpoint({
    method: 'GET',
    path: '/api/operator/mail/sent',
    tag: 'operators',
    summary: 'The e-mail to an address, newest first: kind, delivery state, attempts, last error (no text)',
    access: 'operator',
    staff: { role: 'support' },
    query: BorrowerEmailSchema,
    responses: { 200: z.object({ messages: z.array(SentMailSchema) }) },
  }),
  resendDeadMail: endpoint({
    method: 'POST',
    path: '/api/operator/mail/dead/resend',
    tag: 'operators',
    summary: 'Queue e-mail that gave up again, the messages named or all of them, due at once',
    access: 'operator',
    body: ResendDeadMailRequestSchema,
    responses: { 200: ResendDeadMailResponseSchema },
  }),
  /** Support, once it knows the caller is the borrower: their sign-in lockouts lifted. */
  unlockBorrower: endpoint({
    method: 'POST',
    path: '/api/operator/borrowers/unlock',
    tag: 'operators',
    summary:
      'Lift the sign-in lockouts of the borrower with this e-mail address (every address they were locked from)',
    access: 'operator',
    staff: { role: 'support' },
    body: BorrowerEmailSchema,
    responses: { 200: z.object({ email: z.string(), unlocked: z.literal(true) }) },
    errors: NO_BORROWER,
  }),
  /**
   * Support, once it knows the caller is the borrower (a lost phone): every second factor removed,
   * every session ended, the borrower told by e-mail. Needs a reason (the audit-reason header).
   */
  resetSecondFactors: endpoint({
    method: 'POST',
    path: '/api/operator/borrowers/reset-second-factors',
    tag: 'operators',
    summary:
      'Remove every second factor of the borrower with this e-mail address, end their sessions and tell them (a reason is required)',
    access: 'operator',
    staff: { role: 'support', stepUp: true },
    body: BorrowerEmailSchema,
    responses: {
      200: z.object({ email: z.string(), factorsRemoved: z.number().int(), sessionsEnded: z.number().int() }),
    },
    errors: NO_BORROWER,
  }),
  /** ?email=: a borrower's security activity, newest first, paged. */
  activity: endpoint({
    method: 'GET',
    path: '/api/operator/activity',
    tag: 'operators',
    summary: "A borrower's security activity of the last 90 days, newest first, paged",
    access: 'operator',
    staff: { role: 'support' },
    query: OperatorActivityQuerySchema,
    responses: { 200: SecurityActivityPageSchema },
    errors: NO_BORROWER,
  }),
};
