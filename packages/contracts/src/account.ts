import { z } from 'zod';
import { EmailSchema, MAX_PASSWORD_LENGTH } from './credentials.js';
import { NewPasswordSchema } from './password.js';
import { singleLineText } from './text.js';
import { route } from './routes.js';

// The borrower's own account (Bearer product access token), and the operators' view of a borrower's
// sign-in sessions (service credential).

export const accountApiPaths = {
  /** The borrower's active sign-in sessions, newest first. */
  sessions: '/api/account/sessions',
  /** Ends one other session of the borrower (POST). */
  endSession: route('/api/account/sessions/:sessionId/end'),
  /** Ends every session of the borrower but the one calling. */
  endOtherSessions: '/api/account/sessions/end-others',
  /** Changes the borrower's password (POST), proving the current one. */
  password: '/api/account/password',
  /** The borrower's sign-in email address and whether the portal can change it (GET); asks to change it (POST). */
  email: '/api/account/email',
  /** Uses the link e-mailed to the new address (POST): the change happens here. */
  confirmEmail: '/api/account/email/confirm',
  operator: {
    /** ?email=: a borrower's active sessions. */
    sessions: '/api/operator/sessions',
    endSession: route('/api/operator/sessions/:sessionId/end'),
    /** Every session of the borrower named in the body. */
    endAllSessions: '/api/operator/sessions/end-all',
  },
} as const;

/** How a session began. */
export const SessionMethodSchema = z.enum([
  'password',
  'email_link',
  'registration',
  'lookup_token',
  'passkey',
]);
export type SessionMethod = z.infer<typeof SessionMethodSchema>;

export const SESSION_METHOD_LABELS: Record<SessionMethod, string> = {
  password: 'Password',
  email_link: 'Sign-in link by email',
  registration: 'Registration',
  lookup_token: 'From your lender',
  passkey: 'Passkey',
};

/** A session's id as the API names it (the sid of its tokens). */
export const SessionIdSchema = z.uuid('The session id is not well-formed.');

export const AccountSessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  /** Null for sessions begun before sign-ins were recorded. */
  method: SessionMethodSchema.nullable(),
  /** Browser and operating system, e.g. "Chrome on Windows"; null when the client named none. */
  device: z.string().nullable(),
  /** The client's network only: an IPv4 /24 or an IPv6 /64. */
  approximateAddress: z.string().nullable(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSessionSchema>;

export const AccountSessionListSchema = z.object({ sessions: z.array(AccountSessionSchema) });
export type AccountSessionList = z.infer<typeof AccountSessionListSchema>;

export const SessionIdParamsSchema = z.object({ sessionId: SessionIdSchema });

export const EndedSessionsSchema = z.object({ ended: z.number().int().nonnegative() });
export type EndedSessions = z.infer<typeof EndedSessionsSchema>;

export const OperatorSessionsQuerySchema = z.object({ email: EmailSchema });
export const OperatorEndAllSessionsRequestSchema = z.object({ email: EmailSchema });

/**
 * Change password. The current password is checked by the directory as a sign-in checks it (a wrong
 * one counts against the lockout), so it is itself the fresh proof of identity the change needs.
 */
export const ChangePasswordRequestSchema = z.object({
  currentPassword: singleLineText()
    .min(1, 'Enter your current password.')
    .max(MAX_PASSWORD_LENGTH, 'That isn’t your current password.'),
  newPassword: NewPasswordSchema,
  /** End every other session of the borrower (ticked by default on the page). */
  signOutOtherSessions: z.boolean(),
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequestSchema>;

export const ChangePasswordResponseSchema = z.object({
  passwordChanged: z.literal(true),
  /** How many other sessions were signed out. */
  endedSessions: z.number().int().nonnegative(),
});
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponseSchema>;


export const TOO_MANY_CHANGES_MESSAGE =
  'You’ve made several changes to your account in a short time. Wait 15 minutes, then try again.';

/** The borrower's sign-in email address, and whether the portal can change it (bundled identity provider). */
export const AccountEmailSchema = z.object({
  email: z.string(),
  /** False with a hosted Okta org: the lender changes it (support phone). */
  changeable: z.boolean(),
});
export type AccountEmail = z.infer<typeof AccountEmailSchema>;

/** Change email: the new address gets a link; nothing changes until it is used. */
export const ChangeEmailRequestSchema = z.object({ newEmail: EmailSchema });
export type ChangeEmailRequest = z.infer<typeof ChangeEmailRequestSchema>;

/** The same answer whether or not the address belongs to another account. */
export const ChangeEmailResponseSchema = z.object({ linkSent: z.literal(true) });

export const ConfirmEmailChangeRequestSchema = z.object({
  token: singleLineText().min(1, 'The link is incomplete.').max(200, 'The link is not well-formed.'),
});
export const ConfirmEmailChangeResponseSchema = z.object({ email: z.string() });

/** What the borrower is told about an email-change link that can't be used (unknown, used, expired, another's). */
export const EMAIL_CHANGE_LINK_PROBLEM =
  'This email change link can’t be used: it has expired, was already used, or belongs to another account. Ask for a new link from your account page.';
