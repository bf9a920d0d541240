import { z } from 'zod';
import { EmailSchema } from './credentials.js';
import { DeviceSchema, SessionMethodSchema } from './account.js';
import { SecondFactorTypeSchema } from './second-factors.js';
import { endpoint } from './endpoint.js';
import { isStorableInstant } from './instants.js';

// The borrower's security activity: what happened to their account (sign-ins, sessions ended,
// password changes, failed sign-ins and lockouts), for the borrower's account page and for operators.

/** How long events are kept and shown. */
export const SECURITY_ACTIVITY_DAYS = 90;

/**
 * Every kind of security event and the words a borrower reads for it. A new kind is one line here
 * (and the code that records it): the list, the CLI and the stored rows take it from this table.
 */
export const SECURITY_EVENT_LABELS = {
  signed_in: 'Signed in',
  session_ended: 'Signed out',
  password_changed: 'Password changed',
  email_changed: 'Email address changed',
  failed_sign_ins: 'Failed sign-in attempts',
  account_locked: 'Account locked',
  second_factor_added: 'Authenticator app added',
  second_factor_removed: 'Authenticator app removed',
  email_codes_added: 'Email codes added',
  email_codes_removed: 'Email codes removed',
  recovery_codes_generated: 'New recovery codes made',
  bank_account_added: 'Bank account added',
  bank_account_removed: 'Bank account removed',
} as const;
export type SecurityEventKind = keyof typeof SECURITY_EVENT_LABELS;
export const SecurityEventKindSchema = z.enum(
  Object.keys(SECURITY_EVENT_LABELS) as [SecurityEventKind, ...SecurityEventKind[]],
);

/** Who ended a session. */
export const SessionEndedBySchema = z.enum([
  'borrower',
  'operator',
  'password_change',
  'unrecognized_sign_in',
  'email_change',
]);
export type SessionEndedBy = z.infer<typeof SessionEndedBySchema>;

export const SESSION_ENDED_BY_LABELS: Record<SessionEndedBy, string> = {
  borrower: 'By you',
  operator: 'By your lender',
  password_change: 'When your password changed',
  unrecognized_sign_in: 'When you reported a sign-in you didn’t recognize',
  email_change: 'When your email address changed',
};

export const SecurityEventSchema = z.object({
  id: z.string(),
  kind: SecurityEventKindSchema,
  occurredAt: z.string(),
  /** Null when neither the browser nor the system was recognised. */
  device: DeviceSchema.nullable(),
  /** The client's network only: an IPv4 /24 or an IPv6 /64. */
  approximateAddress: z.string().nullable(),
  /** signed_in: how the session began. */
  method: SessionMethodSchema.nullable(),
  /** session_ended: who ended it. */
  endedBy: SessionEndedBySchema.nullable(),
  /** failed_sign_ins: how many wrong passwords in a row. */
  attempts: z.number().int().positive().nullable(),
  /** second_factor_added/removed: which kind (null: an authenticator app, in older events). */
  factor: SecondFactorTypeSchema.nullable().optional(),
});
export type SecurityEvent = z.infer<typeof SecurityEventSchema>;

/** The words for an event's kind; a passkey's addition or removal says passkey. */
export function securityEventLabel(event: Pick<SecurityEvent, 'kind' | 'factor'>): string {
  if (event.factor === 'passkey' && event.kind === 'second_factor_added') return 'Passkey added';
  if (event.factor === 'passkey' && event.kind === 'second_factor_removed') return 'Passkey removed';
  return SECURITY_EVENT_LABELS[event.kind];
}

/** Where a page ends: the last event's time and id (keyset paging). Opaque to clients. */
export interface ActivityCursor {
  occurredAt: Date;
  id: string;
}

const CURSOR_MESSAGE = 'That page of activity doesn’t exist. Load the list again.';

export function encodeActivityCursor({ occurredAt, id }: { occurredAt: string; id: string }): string {
  return `${Date.parse(occurredAt).toString(36)}.${id}`;
}

export const ActivityCursorSchema = z
  .string()
  .max(200, CURSOR_MESSAGE)
  .transform((value, ctx): ActivityCursor => {
    const match = /^([0-9a-z]{1,12})\.([0-9A-Za-z_-]{1,100})$/.exec(value);
    const time = match ? parseInt(match[1]!, 36) : NaN;
    // A time the database holds too: JavaScript's own range reaches past it.
    if (!match || !isStorableInstant(time)) {
      ctx.addIssue({ code: 'custom', message: CURSOR_MESSAGE });
      return z.NEVER;
    }
    return { occurredAt: new Date(time), id: match[2]! };
  });

export const MAX_ACTIVITY_PAGE = 50;
export const DEFAULT_ACTIVITY_PAGE = 20;

const PageSizeSchema = z.coerce
  .number({ message: `The page size is a whole number from 1 to ${MAX_ACTIVITY_PAGE}.` })
  .int(`The page size is a whole number from 1 to ${MAX_ACTIVITY_PAGE}.`)
  .min(1, `The page size is a whole number from 1 to ${MAX_ACTIVITY_PAGE}.`)
  .max(MAX_ACTIVITY_PAGE, `The page size is a whole number from 1 to ${MAX_ACTIVITY_PAGE}.`);

export const ActivityQuerySchema = z.strictObject({
  /** The `next` of the previous page. */
  after: ActivityCursorSchema.optional(),
  limit: PageSizeSchema.default(DEFAULT_ACTIVITY_PAGE),
});

export const OperatorActivityQuerySchema = ActivityQuerySchema.extend({ email: EmailSchema });

export const SecurityActivityPageSchema = z.object({
  events: z.array(SecurityEventSchema),
  /** The cursor of the next (older) page; null on the last one. */
  next: z.string().nullable(),
});
export type SecurityActivityPage = z.infer<typeof SecurityActivityPageSchema>;

/** The borrower's own security activity (Bearer product access token); the operators' is in operator.ts. */
export const activityEndpoints = {
  /** The signed-in borrower's security activity, newest first, paged. */
  account: endpoint({
    method: 'GET',
    path: '/api/account/activity',
    tag: 'account',
    summary: "The borrower's security activity of the last 90 days, newest first, paged",
    access: 'borrower',
    query: ActivityQuerySchema,
    responses: { 200: SecurityActivityPageSchema },
  }),
};
