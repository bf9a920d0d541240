import { z } from 'zod';
import { EmailSchema } from './credentials.js';
import { CalendarDateSchema, InstalmentSchema, LoanStatusSchema } from './loans.js';
import { singleLineText } from './text.js';

// The operators' API (service credential), driven by `npm run cli`. Money is in whole cents.

const Name = (what: string) =>
  singleLineText().trim().min(1, `${what} is required.`).max(80, `${what} must be at most 80 characters.`);

export const InviteBorrowerRequestSchema = z.object({
  email: EmailSchema,
  firstName: Name('First name'),
  lastName: Name('Last name'),
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

export const AddLoanRequestSchema = LoanTermsSchema.extend({
  borrowerEmail: EmailSchema,
  reference: LoanReferenceSchema,
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
