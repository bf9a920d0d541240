import type { RequestCountRepository } from '../email-links/request-count-repository.js';
import { linkRequestCounter } from '../email-links/request-limits.js';

/** Changes to a borrower's credentials (password, second factors) per window, each of which e-mails them. */
export const ACCOUNT_CHANGES_PER_WINDOW = 10;
const WINDOW_SECONDS = 15 * 60;

/**
 * A ceiling on credential changes per borrower, counted in the database for every instance: each
 * change sends the borrower an e-mail, and a stolen session must not turn the account page into a
 * way to flood their mailbox. Far above what a borrower setting things up needs.
 */
export function accountChangeLimit(counts: RequestCountRepository) {
  const counter = linkRequestCounter(
    counts,
    {
      perAddressAndClient: ACCOUNT_CHANGES_PER_WINDOW,
      perAddress: ACCOUNT_CHANGES_PER_WINDOW,
      perClient: ACCOUNT_CHANGES_PER_WINDOW,
      windowSeconds: WINDOW_SECONDS,
    },
    'account-change',
  );
  const key = (borrower: { id: string; email: string }) => ({
    email: borrower.email,
    client: `borrower-${borrower.id}`,
  });
  return {
    /** Before a change: false when the borrower is at the ceiling (the change is refused). */
    async wouldAllow(borrower: { id: string; email: string }): Promise<boolean> {
      return counter.wouldAllow(key(borrower));
    },
    /** Once a change has happened (a failed attempt, e.g. a wrong password, uses up nothing). */
    async count(borrower: { id: string; email: string }): Promise<void> {
      await counter.allow(key(borrower));
    },
  };
}

export type AccountChangeLimit = ReturnType<typeof accountChangeLimit>;
