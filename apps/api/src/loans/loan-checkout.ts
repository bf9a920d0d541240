import { createHash } from 'node:crypto';
import {
  CHECKOUT_LOAN_STATUSES,
  ESIGN_CONSENT,
  accountNameOf,
  signatureNameMatches,
  type LoanDetail,
  type EsignConsent,
  type LoanStatus,
} from '@customer-core/contracts';
import { borrowerLoans } from './borrower-loans.js';
import type { LoanQueries, LoanRepository } from './loan-repository.js';
import type { ApiTransaction } from '../db/schema.js';
import type { WebhookEvents } from '../webhooks/webhooks.js';

// A loan's document checkout: the borrower starts it, reviews every document and signs those that
// need a signature; the last step completes it. Each step runs in one transaction that holds the
// checkout row, so concurrent steps of one checkout happen one after another and exactly one of them
// sees every document done.

export type CheckoutProblem =
  | 'loan_not_found'
  | 'document_not_found'
  /** The loan's status does not allow a checkout (e.g. PAID). */
  | 'not_checkout_status'
  | 'no_documents'
  | 'not_started'
  | 'not_reviewed'
  | 'no_signature_needed'
  | 'already_signed'
  /** The account has no name to check a signature against. */
  | 'no_account_name'
  /** The borrower has not agreed to sign electronically (to the current text). */
  | 'consent_required';

export type CheckoutOutcome =
  /** completedNow: this step completed the checkout. */
  | { ok: true; loan: LoanDetail; completedNow: boolean }
  | { ok: false; problem: CheckoutProblem; status?: LoanStatus }
  /** The name typed is not the account's: accountName says the one to type. */
  | { ok: false; problem: 'name_mismatch'; accountName: string };

/** A signature as the borrower makes it: the name typed, and their sign-in as the request shows it. */
export interface SignatureRequest {
  name: string;
  clientAddress: string;
  /** The access token's amr (how they signed in) and auth_time (seconds since the epoch). */
  amr: string[] | null;
  authTime: number;
}

/** The fingerprint of a document's text: SHA-256 of its UTF-8 bytes, in hex. */
export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const allowsCheckout = (status: LoanStatus) =>
  (CHECKOUT_LOAN_STATUSES as readonly LoanStatus[]).includes(status);

/** Completes the checkout once every document is reviewed and every one that needs it signed. */
/**
 * Writes the PDFs of documents signed in a transaction (documents' signedPdfWriter): readied for the
 * borrower before it opens, then called inside it for each document signed.
 */
export type SignedPdfs = (
  borrowerId: string,
) => Promise<(trx: ApiTransaction, documentId: string) => Promise<Uint8Array>>;

export function loanCheckout(repository: LoanRepository, events: WebhookEvents, signedPdfs: SignedPdfs) {
  /** Completes the checkout once nothing is left to do; the lender's systems hear of it. */
  async function completeIfDone(
    loans: LoanQueries,
    trx: ApiTransaction,
    checkout: { borrowerId: string; loanId: string; loanReference: string },
  ): Promise<boolean> {
    if ((await loans.openDocuments(checkout.loanId)) > 0) return false;
    if (!(await loans.completeCheckout(checkout.loanId))) return false;
    await events.publish('checkout.completed', checkout, trx);
    return true;
  }

  /** Tells a loan the borrower cannot see from one whose checkout has not started. */
  async function withoutCheckout(
    loans: LoanQueries,
    borrowerId: string,
    loanId: string,
  ): Promise<CheckoutOutcome> {
    const loan = await loans.lockLoan(borrowerId, loanId);
    return { ok: false, problem: loan ? 'not_started' : 'loan_not_found' };
  }

  async function detail(
    loans: LoanQueries,
    borrowerId: string,
    loanId: string,
    completedNow = false,
  ): Promise<CheckoutOutcome> {
    const loan = await borrowerLoans(loans).one(borrowerId, loanId);
    if (!loan) throw new Error('the loan vanished within its own transaction');
    return { ok: true, loan, completedNow };
  }

  /** The consent to sign electronically, and when the borrower gave it (null: not yet). */
  async function esignConsent(borrowerId: string): Promise<EsignConsent> {
    const given = await repository.esignConsentOf(borrowerId, ESIGN_CONSENT.version);
    return {
      version: ESIGN_CONSENT.version,
      title: ESIGN_CONSENT.title,
      text: given?.text ?? ESIGN_CONSENT.text,
      givenAt: given ? given.given_at.toISOString() : null,
    };
  }

  return {
    /** Starts the checkout; starting a started one changes nothing. */
    start(borrowerId: string, loanId: string): Promise<CheckoutOutcome> {
      return repository.transaction(async (loans) => {
        const loan = await loans.lockLoan(borrowerId, loanId);
        if (!loan) return { ok: false, problem: 'loan_not_found' };
        if (!allowsCheckout(loan.status))
          return { ok: false, problem: 'not_checkout_status', status: loan.status };
        if ((await loans.documentCount(loan.id)) === 0) return { ok: false, problem: 'no_documents' };
        await loans.startCheckout(loan.id);
        return detail(loans, borrowerId, loan.id);
      });
    },

    /** Marks a document reviewed; reviewing it again changes nothing. */
    async review(borrowerId: string, loanId: string, documentId: string): Promise<CheckoutOutcome> {
      const outcome = await repository.transaction(async (loans, trx): Promise<CheckoutOutcome> => {
        const checkout = await loans.lockCheckout(borrowerId, loanId);
        if (!checkout) return withoutCheckout(loans, borrowerId, loanId);
        const document = await loans.documentToReview(checkout.id, documentId);
        if (!document) return { ok: false, problem: 'document_not_found' };
        if (document.reviewed_at) return detail(loans, borrowerId, checkout.id);
        if (!allowsCheckout(checkout.status))
          return { ok: false, problem: 'not_checkout_status', status: checkout.status };
        await loans.markReviewed(document.id);
        const told = { borrowerId, loanId: checkout.id, loanReference: checkout.reference };
        await events.publish('document.reviewed', { ...told, documentId: document.id }, trx);
        return detail(loans, borrowerId, checkout.id, await completeIfDone(loans, trx, told));
      });
      if (outcome.ok) events.nudge();
      return outcome;
    },

    /**
     * Signs reviewed documents that need a signature, all or none, with the name the borrower typed:
     * it must be their account's name, and they must have agreed to sign electronically. Records what
     * the signature certificate states: the account, the consent, the sign-in, the client address and
     * the fingerprint of each text signed.
     */
    async sign(
      borrowerId: string,
      loanId: string,
      documentIds: readonly string[],
      signature: SignatureRequest,
    ): Promise<CheckoutOutcome> {
      const writePdf = await signedPdfs(borrowerId);
      const outcome = await repository.transaction(async (loans, trx): Promise<CheckoutOutcome> => {
        const checkout = await loans.lockCheckout(borrowerId, loanId);
        if (!checkout) return withoutCheckout(loans, borrowerId, loanId);
        const documents = await loans.documentsToSign(checkout.id, documentIds);
        if (documents.length !== new Set(documentIds).size)
          return { ok: false, problem: 'document_not_found' };
        for (const document of documents) {
          if (!document.requires_signature) return { ok: false, problem: 'no_signature_needed' };
          if (document.signed_at) return { ok: false, problem: 'already_signed' };
          if (!document.reviewed_at) return { ok: false, problem: 'not_reviewed' };
        }
        if (!allowsCheckout(checkout.status))
          return { ok: false, problem: 'not_checkout_status', status: checkout.status };
        const account = { firstName: checkout.first_name, lastName: checkout.last_name };
        const accountName = accountNameOf(account);
        if (!accountName) return { ok: false, problem: 'no_account_name' };
        if (!signatureNameMatches(signature.name, account))
          return { ok: false, problem: 'name_mismatch', accountName };
        const consent = await loans.esignConsentOf(borrowerId, ESIGN_CONSENT.version);
        if (!consent) return { ok: false, problem: 'consent_required' };
        const signed = documents.map((document) => ({
          documentId: document.id,
          textSha256: sha256Hex(document.body),
        }));
        for (const [i, document] of documents.entries())
          await loans.sign(document.id, {
            // One space between words: "Dana  Demo " is signed as "Dana Demo".
            name: signature.name.trim().replace(/\s+/g, ' '),
            clientAddress: signature.clientAddress,
            bodySha256: signed[i]!.textSha256,
            signerName: accountName,
            signerEmail: checkout.email,
            amr: signature.amr,
            authTime: new Date(signature.authTime * 1000),
            consent: { version: consent.version, givenAt: consent.given_at },
          });
        // Each signed PDF is written now, in this transaction: the lender's systems hear of the very
        // bytes every download serves (and of each text's fingerprint, as its certificate states it).
        const fingerprinted = [];
        for (const document of signed) {
          const pdf = await writePdf(trx, document.documentId);
          fingerprinted.push({ ...document, pdfSha256: createHash('sha256').update(pdf).digest('hex') });
        }
        const told = { borrowerId, loanId: checkout.id, loanReference: checkout.reference };
        await events.publish(
          'documents.signed',
          { ...told, signerName: accountName, documents: fingerprinted },
          trx,
        );
        return detail(loans, borrowerId, checkout.id, await completeIfDone(loans, trx, told));
      });
      if (outcome.ok) events.nudge();
      return outcome;
    },

    esignConsent,

    /** Records the borrower's consent to the current text; undefined when they read another version. */
    async giveEsignConsent(
      borrowerId: string,
      version: string,
      clientAddress: string,
    ): Promise<EsignConsent | undefined> {
      if (version !== ESIGN_CONSENT.version) return undefined;
      await repository.recordEsignConsent(borrowerId, {
        version,
        text: ESIGN_CONSENT.text,
        clientAddress,
      });
      return esignConsent(borrowerId);
    },
  };
}

export type LoanCheckout = ReturnType<typeof loanCheckout>;
