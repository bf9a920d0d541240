import {
  type ApiErrorCode,
  type EsignConsent,
  type LoanDetail,
  type LoanSummary,
  type SignDocumentsRequest,
  loanEndpoints,
  signingEndpoints,
} from '@customer-core/contracts';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ApiResult } from '../lib/api-client';
import { describeFailure, stepUpMessageOf } from '../lib/api-failure';
import { sessionRequest } from '../lib/auth/session-request';

// The signed-in borrower's loans (Bearer product token). A 401 also ends the session: the guard then
// sends the borrower to sign-in, so the screens need not tell it apart from another failure.

export type LoansOutcome = { kind: 'loaded'; loans: LoanSummary[] } | { kind: 'failed'; message: string };

export type LoanOutcome =
  | { kind: 'loaded'; loan: LoanDetail }
  /** Not the borrower's loan, or no loan at all: the same answer, so nothing leaks. */
  | { kind: 'not-found' }
  /** The API would not do it (e.g. a loan that can't be checked out): its message, for people. */
  | { kind: 'refused'; message: string; code: ApiErrorCode | null }
  /** Signing needs a recent sign-in: the borrower confirms it's them, then the call is made again. */
  | { kind: 'step-up'; message: string }
  | { kind: 'failed'; message: string };

// The screens' own sentences for a failure, in the portal's language at the time it happened.
const LOANS_FAILED = msg`We couldn’t load your loans just now. Please try again in a few minutes.`;
const LOAN_FAILED = msg`We couldn’t load this loan just now. Please try again in a few minutes.`;
const ACTION_FAILED = msg`We couldn’t save that just now. Please try again in a few minutes.`;

/** GET the borrower's loans (open ones first; HIDDEN ones never come). */
export async function getLoans(signal?: AbortSignal): Promise<LoansOutcome> {
  const result = await sessionRequest(loanEndpoints.loans, { signal });
  if (result.isError)
    return { kind: 'failed', message: describeFailure(result, i18n._(LOANS_FAILED)).message };
  return { kind: 'loaded', loans: result.data.loans };
}

function loanOutcome(result: ApiResult<LoanDetail>, fallback: MessageDescriptor): LoanOutcome {
  if (!result.isError) return { kind: 'loaded', loan: result.data };
  if (result.status === 404 && !result.exceptionThrown) return { kind: 'not-found' };
  const failure = describeFailure(result, i18n._(fallback));
  const stepUp = stepUpMessageOf(failure);
  if (stepUp) return { kind: 'step-up', message: stepUp };
  if ((result.status === 400 || result.status === 409) && failure.serverMessage)
    return { kind: 'refused', message: failure.serverMessage, code: failure.code };
  return { kind: 'failed', message: failure.message };
}

export async function getLoan(loanId: string, signal?: AbortSignal): Promise<LoanOutcome> {
  // The id comes from the address; the API answers a malformed one 404, as a loan that does not exist.
  return loanOutcome(await sessionRequest(loanEndpoints.loan, { params: { loanId }, signal }), LOAN_FAILED);
}

/** Starts the loan's document checkout; starting it again changes nothing. */
export async function startCheckout(loanId: string, signal?: AbortSignal): Promise<LoanOutcome> {
  const result = await sessionRequest(loanEndpoints.startCheckout, { params: { loanId }, signal });
  return loanOutcome(result, LOAN_FAILED);
}

export async function reviewDocument(loanId: string, documentId: string): Promise<LoanOutcome> {
  const result = await sessionRequest(loanEndpoints.reviewDocument, { params: { loanId, documentId } });
  return loanOutcome(result, ACTION_FAILED);
}

/** "Sign all": the listed documents with one adopted signature, all or none. */
export async function signDocuments(loanId: string, signature: SignDocumentsRequest): Promise<LoanOutcome> {
  return loanOutcome(
    await sessionRequest(loanEndpoints.signDocuments, { params: { loanId }, body: signature }),
    ACTION_FAILED,
  );
}

export type ConsentOutcome = { kind: 'loaded'; consent: EsignConsent } | { kind: 'failed'; message: string };

const CONSENT_FAILED = msg`We couldn’t load the consent to sign electronically just now. Please try again.`;

function consentOutcome(result: ApiResult<EsignConsent>): ConsentOutcome {
  if (!result.isError) return { kind: 'loaded', consent: result.data };
  const failure = describeFailure(result, i18n._(CONSENT_FAILED));
  return { kind: 'failed', message: failure.serverMessage ?? failure.message };
}

/** The consent to sign electronically, and when the borrower gave it. */
export async function getEsignConsent(signal?: AbortSignal): Promise<ConsentOutcome> {
  return consentOutcome(await sessionRequest(signingEndpoints.esignConsent, { signal }));
}

/** The borrower agrees to the consent of this version (the one they read). */
export async function giveEsignConsent(version: string): Promise<ConsentOutcome> {
  return consentOutcome(
    await sessionRequest(signingEndpoints.giveEsignConsent, { body: { version, agreed: true } }),
  );
}
