import { z } from 'zod';
import { EmailSchema, MAX_PASSWORD_LENGTH } from './credentials.js';
import { NewPasswordSchema } from './password.js';
import {
  ACCOUNT_ERROR_CODES,
  API_ERROR_CODES,
  NEW_PASSWORD_ERROR_CODES,
  STEP_UP_REQUIRED,
} from './api-errors.js';
import { endpoint } from './endpoint.js';
import { singleLineText } from './text.js';
import { LocaleSchema } from './locale-schema.js';

// The borrower's own account (Bearer product access token), and the operators' view of a borrower's
// sign-in sessions (service credential; its endpoints are operatorEndpoints', in operator.ts).

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

/** What the borrower reads for a device whose browser and system the portal does not recognise. */
export const UNKNOWN_DEVICE = 'Unknown device';

/**
 * A device as the API recognised it from the User-Agent: the browser's and the operating system's
 * names as the parser knows them ("Chrome", "Windows"), each null unless recognised, never the
 * client's own text. Names, not a phrase: each reader puts them in its language ("Chrome on Windows").
 */
export const DeviceSchema = z.object({ browser: z.string().nullable(), system: z.string().nullable() });
export type Device = z.infer<typeof DeviceSchema>;

export const AccountSessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  /** Null for sessions begun before sign-ins were recorded. */
  method: SessionMethodSchema.nullable(),
  /** Null when the API recognised neither the browser nor the system. */
  device: DeviceSchema.nullable(),
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

/**
 * The borrower's language: the portal's screens, the e-mails sent to them and their signature
 * certificates. Kept on their profile in the identity provider (its `locale`, and the ID token's).
 */
export const AccountLanguageSchema = z.object({ locale: LocaleSchema });
export type AccountLanguage = z.infer<typeof AccountLanguageSchema>;

/** The borrower's own account (Bearer product access token): sessions, password, sign-in email address. */
export const accountEndpoints = {
  /** The borrower's active sign-in sessions, newest first. */
  sessions: endpoint({
    method: 'GET',
    path: '/api/account/sessions',
    tag: 'account',
    summary: "The borrower's active sign-in sessions, newest first, the caller's marked",
    access: 'borrower',
    responses: { 200: AccountSessionListSchema },
  }),
  /** Ends one other session of the borrower. */
  endSession: endpoint({
    method: 'POST',
    path: '/api/account/sessions/:sessionId/end',
    tag: 'account',
    summary: 'End another of the borrower’s sessions: its tokens and its identity-provider session',
    access: 'borrower',
    responses: { 200: EndedSessionsSchema },
    // An unknown, ended, another's or malformed id: 404; the caller's own session: 400.
    errors: { 400: ['current_session'], 404: ['not_found'] },
  }),
  /** Ends every session of the borrower but the one calling. */
  endOtherSessions: endpoint({
    method: 'POST',
    path: '/api/account/sessions/end-others',
    tag: 'account',
    summary: 'End every session of the borrower but this one',
    access: 'borrower',
    responses: { 200: EndedSessionsSchema },
  }),
  /** Changes the borrower's password, proving the current one. */
  password: endpoint({
    method: 'POST',
    path: '/api/account/password',
    tag: 'account',
    summary: 'Change the borrower’s password, proving the current one; optionally sign out the rest',
    access: 'borrower',
    body: ChangePasswordRequestSchema,
    responses: { 200: ChangePasswordResponseSchema },
    errors: {
      400: [
        ACCOUNT_ERROR_CODES.passwordUnchanged,
        ACCOUNT_ERROR_CODES.wrongPassword,
        ACCOUNT_ERROR_CODES.noPassword,
        ...NEW_PASSWORD_ERROR_CODES,
      ],
      429: [ACCOUNT_ERROR_CODES.tooManyChanges],
    },
  }),
  /** The borrower's sign-in email address and whether the portal can change it. */
  email: endpoint({
    method: 'GET',
    path: '/api/account/email',
    tag: 'account',
    summary: 'The borrower’s sign-in email address, and whether the portal can change it',
    access: 'borrower',
    responses: { 200: AccountEmailSchema },
  }),
  /** Asks to change the sign-in email address (the same path as `email`). */
  changeEmail: endpoint({
    method: 'POST',
    path: '/api/account/email',
    tag: 'account',
    summary: 'E-mail a link to the new address; nothing changes until it is used',
    access: 'borrower',
    body: ChangeEmailRequestSchema,
    responses: { 202: ChangeEmailResponseSchema },
    errors: {
      400: [ACCOUNT_ERROR_CODES.emailUnchanged],
      403: [STEP_UP_REQUIRED],
      409: [ACCOUNT_ERROR_CODES.emailChangeWithLender],
      429: [ACCOUNT_ERROR_CODES.emailChangeLimited],
    },
  }),
  /** Uses the link e-mailed to the new address: the change happens here. */
  confirmEmail: endpoint({
    method: 'POST',
    path: '/api/account/email/confirm',
    tag: 'account',
    summary: 'Use the link sent to the new address (once): the sign-in email changes',
    access: 'borrower',
    body: ConfirmEmailChangeRequestSchema,
    responses: { 200: ConfirmEmailChangeResponseSchema },
    errors: {
      400: [API_ERROR_CODES.invalidLink],
      409: [ACCOUNT_ERROR_CODES.emailChangeWithLender, ACCOUNT_ERROR_CODES.emailTaken],
    },
  }),
  /**
   * Sets the borrower's language on their profile in the identity provider; the saved choice is
   * answered. Read it back from the profile (authEndpoints.profile) or a new ID token's `locale`.
   */
  setLanguage: endpoint({
    method: 'PUT',
    path: '/api/account/language',
    tag: 'account',
    summary: 'Set the borrower’s language (en-US or es-US) on their identity-provider profile',
    access: 'borrower',
    body: AccountLanguageSchema,
    responses: { 200: AccountLanguageSchema },
    // A borrower whose identity is another provider's: the browser keeps their choice.
    errors: { 404: ['not_found'], 409: [ACCOUNT_ERROR_CODES.languageNotKept] },
  }),
};
