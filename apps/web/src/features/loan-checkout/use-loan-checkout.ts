import {
  CHECKOUT_LOAN_STATUSES,
  type ApiErrorCode,
  type EsignConsent,
  type LoanDetail,
  type LoanStatus,
  type SignDocumentsRequest,
} from '@customer-core/contracts';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useCallback, useState } from 'react';
import { useLoad } from '../../lib/use-load';
import {
  getEsignConsent,
  getLoan,
  giveEsignConsent,
  reviewDocument,
  signDocuments,
  startCheckout,
  type LoanOutcome,
} from '../../loans/loans-api';

export type CheckoutState =
  | { kind: 'not-found' }
  | { kind: 'failed'; message: string }
  /**
   * `refused`: the API would not start the checkout (its message). `consent`: the consent to sign
   * electronically and whether the borrower gave it (null for a checkout with nothing to sign).
   */
  | { kind: 'ready'; loan: LoanDetail; refused: string | null; consent: EsignConsent | null };

/** What an action on a document came to, for the document's own view. */
export type ActionResult =
  | { ok: true; loan: LoanDetail }
  /** stepUp: the borrower must sign in again first (the message says so), then try again. */
  | { ok: false; message: string; stepUp?: true; code?: ApiErrorCode | null };

export type ConsentResult = { ok: true; consent: EsignConsent } | { ok: false; message: string };

export const canCheckOut = (status: LoanStatus) =>
  (CHECKOUT_LOAN_STATUSES as readonly string[]).includes(status);

async function openCheckout(loanId: string, signal: AbortSignal): Promise<CheckoutState> {
  // The consent comes with the loan, so that the signature form is whole from its first render.
  const [loaded, consent] = await Promise.all([getLoan(loanId, signal), getEsignConsent(signal)]);
  if (loaded.kind === 'not-found') return { kind: 'not-found' };
  if (loaded.kind !== 'loaded') return { kind: 'failed', message: loaded.message };
  const { loan } = loaded;
  const ready = (shown: LoanDetail, refused: string | null = null): CheckoutState => {
    const toSign =
      canCheckOut(shown.status) && shown.documents.some((d) => d.state !== 'signed' && d.requiresSignature);
    if (toSign && consent.kind === 'failed') return { kind: 'failed', message: consent.message };
    return {
      kind: 'ready',
      loan: shown,
      refused,
      consent: consent.kind === 'loaded' ? consent.consent : null,
    };
  };
  // Opening the page starts the checkout; a loan that can't be checked out is only shown.
  if (!canCheckOut(loan.status) || loan.checkout.status !== 'not_started') return ready(loan);
  const started = await startCheckout(loanId, signal);
  switch (started.kind) {
    case 'loaded':
      return ready(started.loan);
    case 'refused':
    case 'step-up':
      return ready(loan, started.message);
    case 'not-found':
      return { kind: 'not-found' };
    case 'failed':
      return { kind: 'failed', message: started.message };
  }
}

const NOT_FOUND_NOW = msg`This loan is no longer in your account. Go back to your account to see your loans.`;

/** The loan's checkout: loaded (and started) on opening, then advanced document by document. */
export function useLoanCheckout(loanId: string) {
  const { i18n } = useLingui();
  const { state, setState, retry } = useLoad((signal) => openCheckout(loanId, signal), [loanId]);
  // The consent once given here (the loaded state keeps the one of opening).
  const [consentGiven, setConsentGiven] = useState<EsignConsent | null>(null);

  const apply = useCallback(
    (outcome: LoanOutcome): ActionResult => {
      switch (outcome.kind) {
        case 'loaded':
          setState((now) =>
            now.kind === 'ready'
              ? { ...now, loan: outcome.loan, refused: null }
              : { kind: 'ready', loan: outcome.loan, refused: null, consent: null },
          );
          return { ok: true, loan: outcome.loan };
        case 'not-found':
          return { ok: false, message: i18n._(NOT_FOUND_NOW) };
        case 'step-up':
          return { ok: false, message: outcome.message, stepUp: true };
        case 'refused':
          return { ok: false, message: outcome.message, code: outcome.code };
        case 'failed':
          return { ok: false, message: outcome.message };
      }
    },
    [setState, i18n],
  );

  const review = useCallback(
    async (documentId: string) => apply(await reviewDocument(loanId, documentId)),
    [apply, loanId],
  );
  const signAll = useCallback(
    async (signature: SignDocumentsRequest) => apply(await signDocuments(loanId, signature)),
    [apply, loanId],
  );
  const giveConsent = useCallback(async (version: string): Promise<ConsentResult> => {
    const given = await giveEsignConsent(version);
    if (given.kind === 'failed') return { ok: false, message: given.message };
    setConsentGiven(given.consent);
    return { ok: true, consent: given.consent };
  }, []);
  const shown: typeof state =
    state.kind === 'ready' && consentGiven ? { ...state, consent: consentGiven } : state;
  return { state: shown, retry, review, signAll, giveConsent };
}
