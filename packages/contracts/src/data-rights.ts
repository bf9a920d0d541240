import { z } from 'zod';
import { EmailSchema } from './credentials.js';
import { endpoint } from './endpoint.js';
import { BorrowerEmailSchema } from './operator.js';
import { singleLineText } from './text.js';

// A borrower's data rights, for operators (`npm run cli -- export-borrower`, `erase-borrower`,
// `legal-hold`): a copy of everything the portal holds about them, and its erasure where the law allows.

const HOLD_REASON = 'The reason for a legal hold is one line of 1 to 500 characters.';
export const LegalHoldRequestSchema = z.union([
  z.strictObject({
    email: EmailSchema,
    hold: z.literal(true),
    reason: singleLineText(HOLD_REASON).trim().min(1, HOLD_REASON).max(500, HOLD_REASON),
  }),
  z.strictObject({ email: EmailSchema, hold: z.literal(false) }),
]);

export const ErasureReportSchema = z.object({
  erased: z.array(z.string()),
  kept: z.array(z.object({ what: z.string(), why: z.string() })),
});

export const dataRightsEndpoints = {
  /** An address no borrower has: 404. */
  borrowerExport: endpoint({
    method: 'GET',
    path: '/api/operator/borrowers/export',
    tag: 'operators',
    summary: 'Everything held about a borrower, as one ZIP archive: borrower.json and their signed PDFs',
    access: 'operator',
    query: BorrowerEmailSchema,
    responses: { 200: z.any().describe('application/zip') },
    errors: { 404: ['not_found'] },
  }),
  /** Refused (409 legal_hold) while a legal hold keeps the borrower's data. */
  eraseBorrower: endpoint({
    method: 'POST',
    path: '/api/operator/borrowers/erase',
    tag: 'operators',
    summary: 'Erase what the law allows of a borrower’s data; what was erased and what was kept, and why',
    access: 'operator',
    staff: { stepUp: true },
    body: BorrowerEmailSchema,
    responses: { 200: ErasureReportSchema },
    errors: { 404: ['not_found'], 409: ['legal_hold'] },
  }),
  legalHold: endpoint({
    method: 'PUT',
    path: '/api/operator/borrowers/legal-hold',
    tag: 'operators',
    summary: 'Set (with its reason) or lift the legal hold that keeps all of a borrower’s data',
    access: 'operator',
    staff: { stepUp: true },
    body: LegalHoldRequestSchema,
    responses: { 200: z.object({ email: z.string(), hold: z.boolean() }) },
    errors: { 404: ['not_found'] },
  }),
};
