import { writeFile } from 'node:fs/promises';
import { BorrowerEmailSchema, dataRightsEndpoints } from '@customer-core/contracts';
import { failure } from '../cli-error.js';
import { requireOptions, text, validated, type Command } from '../command.js';

export const exportBorrower: Command = {
  name: 'export-borrower',
  summary: 'Write everything held about a borrower to a ZIP archive (a data-rights request)',
  help: `Usage: npm run cli -- export-borrower --email <address> --out <file.zip> [--reason <text>]

Writes the borrower's copy of what the portal holds about them: borrower.json (their account, their
profile and second factors at the identity provider, loans and schedules, documents with their
signature records, consents, applications, sessions, security events, devices, the e-mails sent and
the audit records of them) and documents/, their signed PDFs. Never a password, a factor's secret, a
token or an e-mail's text. The file is written owner-only, and refused if it exists. The export is
itself in the audit trail.

Options:
  --email <address>     The borrower's email address
  --out <file>          Where to write the archive, e.g. borrower-data.zip`,
  options: { email: { type: 'string' }, out: { type: 'string' } },
  async run(values, { portal, print }) {
    requireOptions('export-borrower', values, ['email', 'out']);
    const query = validated(BorrowerEmailSchema, { email: text(values, 'email') }, { email: '--email' });
    const out = text(values, 'out')!;
    const archive = await portal.download(dataRightsEndpoints.borrowerExport, { query });
    try {
      await writeFile(out, archive, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      throw failure(`Could not write ${out}: ${(error as Error).message}`);
    }
    print(`Wrote ${out} (${archive.length} bytes): ${query.email}'s data.`);
  },
};
