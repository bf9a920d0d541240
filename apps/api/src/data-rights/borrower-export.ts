import { strToU8, zipSync } from 'fflate';
import type { BorrowerDocuments } from '../documents/borrower-documents.js';
import type { Directory } from '../identity/directory.js';
import type { BorrowerDataRepository } from './borrower-data-repository.js';

/** A name for a file in the archive: letters, digits and dashes only. */
const fileName = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'document';

/**
 * A borrower's copy of what the portal holds about them (a data-rights request), as one ZIP archive:
 * `borrower.json` (their account, profile at the identity provider and its second factors, loans,
 * schedules, documents with their signature records, consents, bank accounts (their last four
 * digits), payments and autopay with the authorizations given, applications, sessions, security
 * events, devices, e-mails sent, and the audit records of them) and `documents/`, the signed PDFs.
 * Never a secret: no password or factor secret, no token or its hash, no e-mail's text.
 */
export function borrowerExport(
  repository: BorrowerDataRepository,
  documents: Pick<BorrowerDocuments, 'signedPdf'>,
  directory: Pick<Directory, 'issuer' | 'findById' | 'listFactors'>,
) {
  return {
    async archive(
      email: string,
      exportedAt = new Date(),
    ): Promise<{ ok: true; zip: Uint8Array; borrowers: number; documents: number } | { ok: false }> {
      const borrowers = await repository.borrowers(email);
      if (borrowers.length === 0) return { ok: false };
      const files: Record<string, Uint8Array> = {};
      const accounts = [];
      for (const borrower of borrowers) {
        const rows = await repository.rowsOf(borrower.id, borrower.email);
        const user =
          borrower.idp_subject && borrower.idp_issuer === directory.issuer
            ? await directory.findById(borrower.idp_subject)
            : undefined;
        const factors = user
          ? (await directory.listFactors(user.id)).map(
              ({ factorType, status, createdAt, lastVerifiedAt, name }) => ({
                factorType,
                status,
                createdAt,
                lastVerifiedAt,
                ...(name === undefined ? {} : { name }),
              }),
            )
          : [];
        const references = new Map(rows.loans.map((loan) => [loan.id, loan.reference]));
        const signedPdfs: Record<string, string> = {};
        for (const [i, document] of rows.documents.entries()) {
          if (!document.signed_at) continue;
          const pdf = await documents.signedPdf(borrower.id, document.id);
          if (!pdf.ok) continue; // a hidden loan's: the borrower's view of it has none
          const name = `documents/${fileName(references.get(document.loan_id) ?? 'loan')}-${i + 1}-${fileName(document.title)}.pdf`;
          files[name] = pdf.pdf;
          signedPdfs[document.id] = name;
        }
        accounts.push({
          borrower,
          identityProvider: user ? { ...user, secondFactors: factors } : null,
          ...rows,
          documents: rows.documents.map((document) => ({
            ...document,
            signedPdf: signedPdfs[document.id] ?? null,
          })),
        });
      }
      files['borrower.json'] = strToU8(JSON.stringify({ exportedAt, email, accounts }, null, 2));
      const documentCount = Object.keys(files).length - 1;
      return {
        ok: true,
        zip: zipSync(files, { level: 6, mtime: exportedAt }),
        borrowers: borrowers.length,
        documents: documentCount,
      };
    },
  };
}

export type BorrowerExport = ReturnType<typeof borrowerExport>;
