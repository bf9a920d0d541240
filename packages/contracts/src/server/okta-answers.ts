import { z } from 'zod';
import { singleLineText } from '../text.js';

// Okta's Authentication API (/api/v1/authn), its Sessions API, its System Log and its error body, as
// the portal's two servers speak them: the bundled identity provider builds these answers
// (authn-route.ts, factors/transaction-bodies.ts, okta-user.ts, system-log-api.ts, okta-errors.ts),
// the API reads a hosted org's (identity/okta-directory.ts). Each answer schema holds the fields the
// API reads, which the provider's answers carry (checked where they are built); other fields are
// Okta's and pass unread.

/** Every state of an authentication transaction, as Okta names them. */
export const AUTHN_STATUSES = [
  'UNAUTHENTICATED',
  'PASSWORD_WARN',
  'PASSWORD_EXPIRED',
  'RECOVERY',
  'RECOVERY_CHALLENGE',
  'PASSWORD_RESET',
  'LOCKED_OUT',
  'MFA_ENROLL',
  'MFA_ENROLL_ACTIVATE',
  'MFA_REQUIRED',
  'MFA_CHALLENGE',
  'SUCCESS',
] as const;
export type AuthnStatus = (typeof AUTHN_STATUSES)[number];

/** The states in which a second factor, or its enrolment, comes next (the only ones the provider keeps). */
export type AuthnFactorStatus = Extract<AuthnStatus, `MFA_${string}`>;

/** POST /api/v1/authn: a primary authentication with a password (Okta's options, context, … are ignored). */
export const AuthnBody = z.object({
  username: singleLineText().min(1).max(320),
  password: singleLineText().min(1).max(1024),
});

/** The token of an authentication transaction, which every step after the password names. */
export const StateTokenSchema = z.string().min(1).max(200);

/**
 * POST /api/v1/authn/cancel, /previous and a step without more to say: the transaction only (Okta's
 * extra fields, such as rememberDevice, are accepted and ignored).
 */
export const StateTokenBody = z.object({ stateToken: StateTokenSchema });

/**
 * An authn answer: its state; in SUCCESS the one-time session token that completes the sign-in in the
 * browser; in any other state the transaction's token, for its next step or its cancel.
 */
export const AuthnAnswer = z.object({
  status: z.enum(AUTHN_STATUSES),
  sessionToken: z.string().min(1).optional(),
  stateToken: z.string().min(1).optional(),
});

/** GET /api/v1/sessions/{id}: whose session it is, and whether it is still signed in. */
export const SessionAnswer = z.object({
  id: z.string(),
  userId: z.string(),
  status: z.enum(['ACTIVE', 'MFA_REQUIRED', 'MFA_ENROLL']),
});

/** The System Log event types the portal reads (the provider records these only). */
export const LOG_EVENT_TYPES = {
  /** A sign-in; the provider records one only when it failed (outcome FAILURE). */
  signIn: 'user.session.start',
  /** Too many wrong passwords: the account refuses password sign-ins for a while. */
  lock: 'user.account.lock',
} as const;
export type LogEventType = (typeof LOG_EVENT_TYPES)[keyof typeof LOG_EVENT_TYPES];

/** A LogEvent of GET /api/v1/logs: when, what, its outcome, and the client it came from. */
export const LogEventSchema = z.object({
  uuid: z.string(),
  published: z.string(),
  eventType: z.string(),
  outcome: z.object({ result: z.string().nullish() }).nullish(),
  client: z
    .object({
      userAgent: z.object({ rawUserAgent: z.string().nullish() }).nullish(),
      ipAddress: z.string().nullish(),
    })
    .nullish(),
});
export type LogEventFields = z.output<typeof LogEventSchema>;

/** Okta's error body (okta-auth-js turns it into an AuthApiError); a hosted org's is read field by field. */
export const OktaErrorSchema = z.object({
  errorCode: z.string(),
  errorSummary: z.string(),
  errorLink: z.string(),
  errorId: z.string(),
  errorCauses: z.array(z.object({ errorSummary: z.string() })),
});
export type OktaError = z.output<typeof OktaErrorSchema>;
