import type { Directory } from '../identity/directory.js';
import type { Sessions } from '../session/sessions.js';
import type { BorrowerDataRepository, ErasureRepository } from './borrower-data-repository.js';

/** Regulation B keeps an application 25 months after the lender's notice of action (12 CFR 1002.12(b)(1)). */
const APPLICATION_RETENTION_MONTHS = 25;

const day = (at: Date) => at.toISOString().slice(0, 10);
const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export interface ErasureReport {
  /** What was erased, said as the borrower or a regulator reads it. */
  erased: string[];
  /** What was kept, and why the law or the lender's records keep it. */
  kept: Array<{ what: string; why: string }>;
}

export type ErasureOutcome =
  | ({ ok: true } & ErasureReport)
  | { ok: false; problem: 'not_found' }
  | { ok: false; problem: 'legal_hold'; reason: string; since: Date | null };

/**
 * A borrower's erasure where the law allows it: their sign-in account at the identity provider, their
 * sessions, security activity, devices, tokens and e-mails, and applications older than Regulation B's
 * 25 months, go; loans with their documents and signatures, younger applications and the audit trail
 * stay, each with the reason. Refused while a legal hold keeps everything.
 */
export function borrowerErasure({
  data,
  erasure,
  directory,
  sessions,
  auditRetentionDays,
}: {
  data: Pick<BorrowerDataRepository, 'borrowers'>;
  erasure: ErasureRepository;
  directory: Pick<Directory, 'issuer' | 'deleteUser'>;
  sessions: Pick<Sessions, 'endOtherSessions'>;
  auditRetentionDays: number;
}) {
  return {
    /** Sets (with its reason) or lifts (null) the legal hold; false: no borrower has the address. */
    setLegalHold: async (email: string, reason: string | null): Promise<boolean> =>
      (await erasure.setLegalHold(email, reason)) > 0,

    async erase(email: string, now = new Date()): Promise<ErasureOutcome> {
      const borrowers = await data.borrowers(email);
      if (borrowers.length === 0) return { ok: false, problem: 'not_found' };
      const held = borrowers.find((borrower) => borrower.legal_hold_reason !== null);
      if (held)
        return {
          ok: false,
          problem: 'legal_hold',
          reason: held.legal_hold_reason!,
          since: held.legal_hold_since,
        };

      const keptSince = new Date(now);
      keptSince.setUTCMonth(keptSince.getUTCMonth() - APPLICATION_RETENTION_MONTHS);
      const report: ErasureReport = { erased: [], kept: [] };
      for (const borrower of borrowers) {
        const idpUserId = borrower.idp_issuer === directory.issuer ? borrower.idp_subject : null;
        // Their tokens refused on every instance from now, and their identity-provider sessions over.
        await sessions.endOtherSessions(borrower.id, null, 'operator');
        // A hold set in the moment since it was read is found in the erasure's own transaction below;
        // the identity's deletion cannot wait for it (it is another system's).
        if (idpUserId !== null) {
          await directory.deleteUser(idpUserId);
          report.erased.push(
            'Their sign-in account: password, second factors, passkeys, recovery codes and sessions.',
          );
        }
        const rows = await erasure.erase({ id: borrower.id, email: borrower.email, idpUserId }, keptSince);
        if (!rows) return { ok: false, problem: 'legal_hold', reason: 'set during the erasure', since: null };
        report.erased.push(
          `${counted(rows.sessions, 'sign-in session')}, ${counted(rows.securityEvents, 'security event')}, ${counted(rows.devices, 'known device')}, and their one-time links and codes.`,
          `${counted(rows.emails, 'record')} of e-mails sent to them.`,
        );
        if (rows.applicationsErased > 0)
          report.erased.push(
            `${counted(rows.applicationsErased, 'loan application')} over ${APPLICATION_RETENTION_MONTHS} months old.`,
          );
        if (rows.borrowerDeleted) report.erased.push('Their name and e-mail address.');
        if (rows.loansKept > 0)
          report.kept.push({
            what: `${counted(rows.loansKept, 'loan')}, with schedules, documents, signatures and e-signature consents; their name and e-mail address with them.`,
            why: 'Loan records are the contract and its evidence: the lender keeps them for the life of the loan and its record-retention period after it (E-SIGN Act, 15 U.S.C. 7001(d)).',
          });
        if (rows.applicationsKept.length > 0) {
          const next = new Date(rows.applicationsKept[0]!);
          next.setUTCMonth(next.getUTCMonth() + APPLICATION_RETENTION_MONTHS);
          report.kept.push({
            what: `${counted(rows.applicationsKept.length, 'loan application')} made since ${day(keptSince)}.`,
            why: `Regulation B keeps an application for ${APPLICATION_RETENTION_MONTHS} months (12 CFR 1002.12(b)(1)); erase again from ${day(next)} for the oldest.`,
          });
        }
      }
      report.kept.push({
        what: 'The audit records of their account, this erasure among them.',
        why: `The audit trail is append-only and kept ${auditRetentionDays} days (GLBA Safeguards Rule, 16 CFR 314.4(c)(8)).`,
      });
      return { ok: true, ...report };
    },
  };
}

export type BorrowerErasure = ReturnType<typeof borrowerErasure>;
