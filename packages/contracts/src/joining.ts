import { z } from 'zod';
import { LocaleSchema } from './locale-schema.js';
import { EmailSchema } from './credentials.js';
import { API_ERROR_CODES, NEW_PASSWORD_ERROR_CODES } from './api-errors.js';
import { RegistrationResponseSchema } from './api.js';
import { endpoint } from './endpoint.js';
import { NewPasswordSchema } from './password.js';
import { singleLineText } from './text.js';

// Joining: registering from an operator's invitation, and starting a loan application (whose e-mail
// address is then verified by a link).

const LinkToken = singleLineText('token is not well-formed')
  .min(1, 'token is required')
  .max(512, 'token is too long');

/** An invitation's registration link works this long; a newer invitation voids the older one. */
export const INVITATION_LIFETIME_DAYS = 7;
/** An application's e-mail verification link works this long. */
export const EMAIL_VERIFICATION_LIFETIME_HOURS = 72;

export const InvitationLookupRequestSchema = z.object({ token: LinkToken });
export type InvitationLookupRequest = z.infer<typeof InvitationLookupRequestSchema>;
/** Who was invited: the registration screen shows the e-mail address the account will have. */
export const InvitationSchema = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof InvitationSchema>;

/** `locale`: the language the borrower registered in, kept on their new profile (else English). */
export const RegistrationRequestSchema = z.object({
  token: LinkToken,
  password: NewPasswordSchema,
  locale: LocaleSchema.optional(),
});
export type RegistrationRequest = z.infer<typeof RegistrationRequestSchema>;

export const LOAN_PURPOSES = {
  working_capital: 'Working capital',
  equipment: 'Equipment',
  inventory: 'Inventory',
  expansion: 'Expansion or renovation',
  refinance: 'Refinancing debt',
  other: 'Something else',
} as const;
export type LoanPurpose = keyof typeof LOAN_PURPOSES;
export const LoanPurposeSchema = z.enum(
  Object.keys(LOAN_PURPOSES) as [LoanPurpose, ...LoanPurpose[]],
  'Choose what the loan is for.',
);

export const MIN_AMOUNT_REQUESTED = 5_000;
export const MAX_AMOUNT_REQUESTED = 5_000_000;

/** Whole US dollars as the API's messages write them: 5000 -> "$5,000". */
export const wholeDollars = (value: number) => `$${value.toLocaleString('en-US')}`;

export const StartApplicationSchema = z.object({
  businessName: singleLineText()
    .trim()
    .min(1, 'Business name is required.')
    .max(200, 'Business name must be at most 200 characters.'),
  contactName: singleLineText()
    .trim()
    .min(1, 'Your name is required.')
    .max(120, 'Your name must be at most 120 characters.'),
  email: EmailSchema,
  /** Whole US dollars. */
  amountRequested: z
    .number('Enter the amount you need.')
    .int('Enter a whole dollar amount.')
    .min(MIN_AMOUNT_REQUESTED, `The smallest loan is ${wholeDollars(MIN_AMOUNT_REQUESTED)}.`)
    .max(MAX_AMOUNT_REQUESTED, `The largest loan is ${wholeDollars(MAX_AMOUNT_REQUESTED)}.`),
  purpose: LoanPurposeSchema,
  /** The portal's language as the applicant uses it: their verification e-mail's. English unless given. */
  locale: LocaleSchema.optional(),
});
export type StartApplicationInput = z.input<typeof StartApplicationSchema>;
export type StartApplication = z.output<typeof StartApplicationSchema>;

export const StartApplicationResponseSchema = z.object({
  applicationId: z.string(),
  /** The address the verification link went to. */
  email: z.string(),
});
export type StartApplicationResponse = z.infer<typeof StartApplicationResponseSchema>;

export const EmailVerificationRequestSchema = z.object({ token: LinkToken });
export type EmailVerificationRequest = z.infer<typeof EmailVerificationRequestSchema>;
export const EmailVerificationResponseSchema = z.object({
  email: z.string(),
  businessName: z.string(),
  /** The address had been verified before (the link was opened again): still a success. */
  alreadyVerified: z.boolean(),
});
export type EmailVerificationResponse = z.infer<typeof EmailVerificationResponseSchema>;

/** Registering from an invitation. Its token goes in the body, so it stays out of URLs and logs. */
export const registrationEndpoints = {
  /** Who an invitation is for. */
  invitation: endpoint({
    method: 'POST',
    path: '/api/registration/invitation',
    tag: 'registration',
    summary: "Who an invitation is for (the token of the invitation's link)",
    access: 'public',
    body: InvitationLookupRequestSchema,
    responses: { 200: InvitationSchema },
    errors: { 400: [API_ERROR_CODES.invalidLink], 409: [API_ERROR_CODES.alreadyRegistered] },
  }),
  /**
   * Creates the identity with the chosen password and signs the borrower in, or answers the identity
   * provider's transaction when its policy asks for a second factor (its enrolment) first.
   */
  register: endpoint({
    method: 'POST',
    path: '/api/registration',
    tag: 'registration',
    summary:
      'Register with an invitation (once): creates the account and signs in (a second factor first, if asked)',
    access: 'public',
    body: RegistrationRequestSchema,
    responses: { 200: RegistrationResponseSchema },
    errors: {
      400: [API_ERROR_CODES.invalidLink, ...NEW_PASSWORD_ERROR_CODES],
      409: [API_ERROR_CODES.alreadyRegistered],
    },
  }),
};

/** A signed-in borrower's application: their name and address are the account's, verified already. */
export const BorrowerApplicationRequestSchema = StartApplicationSchema.pick({
  businessName: true,
  amountRequested: true,
  purpose: true,
});
export type BorrowerApplicationRequest = z.output<typeof BorrowerApplicationRequestSchema>;

/**
 * An application as its borrower follows it: one sent while signed in, or one sent signed out from the
 * account's address and verified. `received`: with the lender, who contacts the borrower.
 */
export const BorrowerApplicationSchema = z.object({
  id: z.string(),
  businessName: z.string(),
  /** Whole US dollars. */
  amountRequested: z.number().int(),
  purpose: LoanPurposeSchema,
  submittedAt: z.string(),
  state: z.enum(['received']),
});
export type BorrowerApplication = z.infer<typeof BorrowerApplicationSchema>;
export const BorrowerApplicationListSchema = z.object({ applications: z.array(BorrowerApplicationSchema) });

/** Starting a loan application, and verifying its e-mail address. */
export const applicationEndpoints = {
  start: endpoint({
    method: 'POST',
    path: '/api/applications',
    tag: 'applications',
    summary: 'Start a loan application: e-mails a link to verify the address',
    access: 'public',
    body: StartApplicationSchema,
    responses: { 201: StartApplicationResponseSchema },
  }),
  /** Applying while signed in: no link to verify, the account's address is the borrower's. */
  submitAsBorrower: endpoint({
    method: 'POST',
    path: '/api/borrower/applications',
    tag: 'borrower',
    summary: "Apply for a loan as the signed-in borrower (the account's name and verified address)",
    access: 'borrower',
    body: BorrowerApplicationRequestSchema,
    responses: { 201: BorrowerApplicationSchema },
  }),
  /** The borrower's applications, newest first. */
  borrowerApplications: endpoint({
    method: 'GET',
    path: '/api/borrower/applications',
    tag: 'borrower',
    summary: "The signed-in borrower's loan applications, newest first",
    access: 'borrower',
    responses: { 200: BorrowerApplicationListSchema },
  }),
  verifyEmail: endpoint({
    method: 'POST',
    path: '/api/applications/email-verification',
    tag: 'applications',
    summary: "Verify an application's e-mail address with the token of its link",
    access: 'public',
    body: EmailVerificationRequestSchema,
    responses: { 200: EmailVerificationResponseSchema },
    errors: { 400: [API_ERROR_CODES.invalidLink] },
  }),
};
