import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { instantSchema } from './instants.js';
import { singleLineText } from './text.js';

// The audit trail: every operator call and every change a borrower makes to their own account, in
// order, each record chained to the one before by its hash. Operators read it with `npm run cli -- audit`.

/** The request header an operator's call carries its reason in (the CLI's --reason). */
export const AUDIT_REASON_HEADER = 'audit-reason';
/** Said to operators only (the CLI), so in no borrower's catalogue. */
export const AUDIT_REASON_REFUSAL = 'The reason must be at most 500 characters, on one line.';
export const AuditReasonSchema = singleLineText(AUDIT_REASON_REFUSAL).trim().max(500, AUDIT_REASON_REFUSAL);

/** Retention of the audit trail by default: 7 years, and never under one (AUDIT_RETENTION_DAYS). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 2557;
export const MIN_AUDIT_RETENTION_DAYS = 365;

export const MAX_AUDIT_PAGE = 500;
export const DEFAULT_AUDIT_PAGE = 100;

export const AuditRecordSchema = z.object({
  seq: z.number().int(),
  recordedAt: z.string(),
  actor: z.string(),
  role: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  outcome: z.number().int(),
  // Any JSON value. Not z.json(): its parser would join the zod the borrower's sign-in form loads.
  request: z.unknown().optional(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  reason: z.string().nullable(),
  clientAddress: z.string().nullable(),
  requestId: z.string().nullable(),
});
export type AuditRecordView = z.infer<typeof AuditRecordSchema>;

const Filter = singleLineText().trim().min(1).max(320);
const PAGE_MESSAGE = `The page size is a whole number from 1 to ${MAX_AUDIT_PAGE}.`;

export const AuditQuerySchema = z.strictObject({
  actor: Filter.optional(),
  action: Filter.optional(),
  target: Filter.optional(),
  since: instantSchema('since is a time in ISO 8601 with its offset, e.g. 2026-01-01T00:00:00Z').optional(),
  until: instantSchema('until is a time in ISO 8601 with its offset, e.g. 2026-02-01T00:00:00Z').optional(),
  order: z.enum(['newest', 'oldest']).default('newest'),
  /** The `next` of the previous page. */
  after: z.coerce
    .number({ message: 'That page of the audit trail doesn’t exist.' })
    .int('That page of the audit trail doesn’t exist.')
    .min(0, 'That page of the audit trail doesn’t exist.')
    .max(Number.MAX_SAFE_INTEGER, 'That page of the audit trail doesn’t exist.')
    .optional(),
  limit: z.coerce
    .number({ message: PAGE_MESSAGE })
    .int(PAGE_MESSAGE)
    .min(1, PAGE_MESSAGE)
    .max(MAX_AUDIT_PAGE, PAGE_MESSAGE)
    .default(DEFAULT_AUDIT_PAGE),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditPageSchema = z.object({
  records: z.array(AuditRecordSchema),
  /** The cursor of the next page; null on the last one. */
  next: z.number().int().nullable(),
});

export const AuditChainCheckSchema = z.object({
  intact: z.boolean(),
  records: z.number().int(),
  firstSeq: z.number().int().nullable(),
  lastSeq: z.number().int().nullable(),
  /** Where the chain breaks: the record's number, and what is wrong with it. */
  problem: z.object({ seq: z.number().int(), what: z.string() }).nullable(),
});
export type AuditChainCheckView = z.infer<typeof AuditChainCheckSchema>;

export const auditEndpoints = {
  records: endpoint({
    method: 'GET',
    path: '/api/operator/audit',
    tag: 'operators',
    summary: 'The audit trail, filtered and paged, newest or oldest first (service credential)',
    access: 'operator',
    query: AuditQuerySchema,
    responses: { 200: AuditPageSchema },
  }),
  verification: endpoint({
    method: 'GET',
    path: '/api/operator/audit/verification',
    tag: 'operators',
    summary: 'Checks the audit trail’s chain of hashes end to end: intact, or where it breaks',
    access: 'operator',
    responses: { 200: AuditChainCheckSchema },
  }),
};
