import { useEffect } from 'react';
import { getLoans, type LoansOutcome } from '../../loans/loans-api';
import { readRawAccessToken } from '../../lib/product-session';
import { useLoad } from '../../lib/use-load';

// Loans asked for before the home was shown (preload-home.ts, as a sign-in finishes): the first home
// of the same session takes them, while fresh (shown from its first render when they have arrived);
// any later one asks anew.
const EARLY_LOANS_FOR_MS = 10_000;
let early:
  { answer: Promise<LoansOutcome>; arrived?: LoansOutcome; token: string; askedAt: number } | undefined;

export function loadLoansEarly(): void {
  const token = readRawAccessToken();
  // Asked once per session while fresh: the login callback may ask before and after its redirect ends.
  if (!token || earlyLoans()) return;
  const asked: NonNullable<typeof early> = { answer: getLoans(), token, askedAt: Date.now() };
  early = asked;
  void asked.answer.then((outcome) => (asked.arrived = outcome));
}

/** The loans asked for early, unless they are stale or another session's. */
function earlyLoans() {
  const fresh = early && Date.now() - early.askedAt <= EARLY_LOANS_FOR_MS;
  return fresh && early?.token === readRawAccessToken() ? early : undefined;
}

/** The signed-in borrower's loans for the home page, with a way to try again after a failure. */
export function useLoans() {
  const loans = useLoad(
    (signal) => earlyLoans()?.answer ?? getLoans(signal),
    [],
    () => earlyLoans()?.arrived,
  );
  // Taken once: the first load (or the answer at hand) used them.
  useEffect(() => {
    early = undefined;
  }, []);
  return loans;
}
