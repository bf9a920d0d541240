import { z } from 'zod';
import { API_ERROR_CODES, CONSOLE_ERROR_CODES } from './api-errors.js';
import { EmailSchema } from './credentials.js';
import { endpoint, STAFF_ROLES } from './endpoint.js';
import { LoanSummarySchema } from './loans.js';
import { BorrowerListSchema } from './operator.js';
import { singleLineText } from './text.js';

// The staff console (/console): support agents and loan officers sign in through the identity
// provider, as borrowers do, but as a population of their own. Its token opens the operators' API
// (as far as the staff member's role allows) and never the borrower's; a borrower's never opens it.

export const StaffRoleSchema = z.enum(STAFF_ROLES);

/** How long a staff sign-in lasts: a short session, then the console asks for the password again. */
export const DEFAULT_CONSOLE_SESSION_MINUTES = 30;
/** A destructive action needs a sign-in this recent (else 403 step_up_required). */
export const CONSOLE_STEP_UP_SECONDS = 5 * 60;
/** What the ID token's amr says of a sign-in with a second factor (RFC 8176). */
export const MULTI_FACTOR_AMR = 'mfa';

const TokenString = singleLineText('token is not well-formed')
  .min(1, 'token is required')
  .max(8192, 'token is too long');

export const ConsoleSignInRequestSchema = z.strictObject({ idToken: TokenString });

export const StaffMemberSchema = z.object({
  email: z.string(),
  name: z.string(),
  role: StaffRoleSchema,
  /** When the sign-in was made and when it ends (ISO 8601). */
  signedInAt: z.string(),
  expiresAt: z.string(),
});
export type StaffMember = z.infer<typeof StaffMemberSchema>;

export const ConsoleSessionSchema = z.object({ accessToken: z.string(), staff: StaffMemberSchema });
export type ConsoleSession = z.infer<typeof ConsoleSessionSchema>;

/** A staff user of the bundled identity provider, as admins manage them. */
export const StaffUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: StaffRoleSchema,
  createdAt: z.string(),
});
export type StaffUser = z.infer<typeof StaffUserSchema>;

const Name = (what: string) =>
  singleLineText().trim().min(1, `${what} is required.`).max(80, `${what} must be at most 80 characters.`);

export const AddStaffUserRequestSchema = z.strictObject({
  email: EmailSchema,
  firstName: Name('First name'),
  lastName: Name('Last name'),
  role: StaffRoleSchema,
});
export type AddStaffUserRequest = z.infer<typeof AddStaffUserRequestSchema>;

/** A new role, or none: the user is no longer staff (their console sessions end). */
export const ChangeStaffUserRequestSchema = z.strictObject({ role: StaffRoleSchema.nullable() });

/** Everything support sees of one borrower at once; the sessions, activity and e-mail come by address. */
export const BorrowerFileSchema = z.object({
  borrower: BorrowerListSchema.shape.borrowers.element.extend({
    /** Whether sign-in is locked out now; null where the directory does not say (no account yet). */
    locked: z.boolean().nullable(),
    legalHold: z.boolean(),
    /** Why the legal hold holds, and since when (ISO 8601); null without one. */
    legalHoldReason: z.string().nullable(),
    legalHoldSince: z.string().nullable(),
  }),
  /** Second factors, as the directory has them; empty without an account. */
  factors: z.array(z.object({ type: z.string(), status: z.string(), createdAt: z.string() })),
  loans: z.array(LoanSummarySchema),
});
export type BorrowerFile = z.infer<typeof BorrowerFileSchema>;

const staffWithProvider = { 409: [CONSOLE_ERROR_CODES.staffWithProvider] } as const;

export const consoleEndpoints = {
  /** The console's sign-in: the identity provider's ID token of a staff member who used a second factor. */
  signIn: endpoint({
    method: 'POST',
    path: '/api/console/sign-in',
    tag: 'console',
    summary: "Exchange a staff member's ID token (with a second factor) for a console token (once)",
    access: 'public',
    body: ConsoleSignInRequestSchema,
    responses: { 200: ConsoleSessionSchema },
    errors: {
      400: ['malformed_token'],
      401: [
        'invalid_token',
        API_ERROR_CODES.idTokenUsed,
        API_ERROR_CODES.idTokenRevoked,
        API_ERROR_CODES.idpSessionEnded,
      ],
      403: [CONSOLE_ERROR_CODES.notStaff, CONSOLE_ERROR_CODES.secondFactorRequired],
    },
  }),
  me: endpoint({
    method: 'GET',
    path: '/api/console/me',
    tag: 'console',
    summary: 'The signed-in staff member: name, role, and when the sign-in ends',
    access: 'operator',
    staff: { role: 'support' },
    responses: { 200: StaffMemberSchema },
  }),
  signOut: endpoint({
    method: 'POST',
    path: '/api/console/sign-out',
    tag: 'console',
    summary: "End the staff member's console session (its token answers 401 from now on)",
    access: 'operator',
    staff: { role: 'support' },
    responses: { 200: z.object({ signedOut: z.literal(true) }) },
  }),
  /** A malformed or unknown id: 404. */
  borrowerFile: endpoint({
    method: 'GET',
    path: '/api/operator/borrowers/:borrowerId',
    tag: 'operators',
    summary: "One borrower's state, lockout, second factors and loans with their checkout",
    access: 'operator',
    staff: { role: 'support' },
    responses: { 200: BorrowerFileSchema },
    errors: { 404: ['not_found'] },
  }),
  /** The invitation out for this address, sent again with a new link (the old one stops working). */
  resendInvitation: endpoint({
    method: 'POST',
    path: '/api/operator/invitations/resend',
    tag: 'operators',
    summary: 'Send a borrower who has not registered yet their invitation again, with a new link',
    access: 'operator',
    staff: { role: 'support' },
    body: z.strictObject({ email: EmailSchema }),
    responses: { 200: z.object({ email: z.string(), expiresAt: z.string() }) },
    errors: { 404: ['not_found'], 409: [API_ERROR_CODES.alreadyRegistered] },
  }),
  staffUsers: endpoint({
    method: 'GET',
    path: '/api/operator/staff',
    tag: 'operators',
    summary: 'The staff users of the bundled identity provider and their roles',
    access: 'operator',
    responses: { 200: z.object({ staff: z.array(StaffUserSchema) }) },
    errors: staffWithProvider,
  }),
  /** A new staff user, e-mailed a link to set their password; their first sign-in adds a second factor. */
  addStaffUser: endpoint({
    method: 'POST',
    path: '/api/operator/staff',
    tag: 'operators',
    summary: 'Add a staff user with a role and e-mail them a link to set their password',
    access: 'operator',
    staff: { stepUp: true },
    body: AddStaffUserRequestSchema,
    responses: { 201: StaffUserSchema },
    errors: { 409: [...staffWithProvider[409], API_ERROR_CODES.alreadyRegistered] },
  }),
  changeStaffUser: endpoint({
    method: 'PATCH',
    path: '/api/operator/staff/:staffId',
    tag: 'operators',
    summary: "Change a staff user's role, or take it away (their console sessions end)",
    access: 'operator',
    staff: { stepUp: true },
    body: ChangeStaffUserRequestSchema,
    responses: { 200: z.object({ id: z.string(), role: StaffRoleSchema.nullable() }) },
    errors: { 404: ['not_found'], ...staffWithProvider },
  }),
};
