import { z } from 'zod';
import { EmailSchema } from './credentials.js';
import { endpoint } from './endpoint.js';

// A borrower's data rights, for operators (`npm run cli -- export-borrower`): a copy of everything the
// portal holds about them.

export const BorrowerExportQuerySchema = z.strictObject({ email: EmailSchema });

export const dataRightsEndpoints = {
  /** An address no borrower has: 404. */
  borrowerExport: endpoint({
    method: 'GET',
    path: '/api/operator/borrowers/export',
    tag: 'operators',
    summary: 'Everything held about a borrower, as one ZIP archive: borrower.json and their signed PDFs',
    access: 'service',
    query: BorrowerExportQuerySchema,
    responses: { 200: z.any().describe('application/zip') },
    errors: { 404: ['not_found'] },
  }),
};
