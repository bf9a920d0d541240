import type { FastifyRequest } from 'fastify';
import { SECOND_FACTOR_AMR, STEP_UP_MAX_AGE_SECONDS, STEP_UP_REQUIRED } from '@customer-core/contracts';
import { EMAIL_LINK_AMR } from '@customer-core/contracts/server';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import { borrowerClaimsOf } from '../session/signed-in-borrower.js';
import { HttpError } from '../http/http-error.js';
import type { Directory } from '../identity/directory.js';
import type { ProductTokenClaims } from '../session/product-token.js';

// A sensitive action (signing a loan document, changing the sign-in email address) needs a recent
// sign-in with the strongest factor the borrower has: a second factor where they have one, the
// password otherwise. The token's amr and auth_time say how and when the borrower signed in; whether
// they have a factor is asked of the directory at the moment of the action, not taken from the token,
// so that a factor enrolled after sign-in, or a sign-in that did not ask for one (an e-mailed link),
// still calls for a step-up.
//
// The first proof is the password, or the mailbox: a code e-mailed to the sign-in address in the
// step-up itself (step-up-code.ts), whose amr is the e-mailed link's ('email'). It counts as the
// password does, never as a second factor: a borrower who has one is asked for it after the code too.
// A product session begun by the link itself carries no amr and still calls for a step-up: a link
// opens a session in whatever browser it is opened in, while the code is typed in the session that
// asked for it.

/** The answer to a request that needs a step-up first: `message` is shown above the password. */
export const stepUpRefusal = (message: string) => new HttpError(403, STEP_UP_REQUIRED, message);

export type StepUpVerdict = { ok: true } | { ok: false; why: 'stale' | 'no_password' | 'no_second_factor' };

export function stepUpGuard({
  borrowers,
  directory,
}: {
  borrowers: BorrowerRepository;
  directory: Directory;
}) {
  /** The directory's user id of the borrower, when their identity is the directory's. */
  async function directoryUserOf(borrowerId: string): Promise<string | null> {
    const borrower = await borrowers.findById(borrowerId);
    return borrower?.idpIssuer === directory.issuer ? borrower.idpSubject : null;
  }

  async function check(claims: ProductTokenClaims, now = Date.now()): Promise<StepUpVerdict> {
    if (Math.floor(now / 1000) - claims.auth_time > STEP_UP_MAX_AGE_SECONDS)
      return { ok: false, why: 'stale' };
    const amr = claims.amr ?? [];
    if (amr.some((method) => SECOND_FACTOR_AMR.includes(method))) return { ok: true };
    // A token without amr comes from a sign-in without the password (an e-mailed link, registration).
    const firstProof = amr.includes('pwd') || amr.includes(EMAIL_LINK_AMR[0]!);
    if (!firstProof) return { ok: false, why: 'no_password' };
    const userId = await directoryUserOf(claims.sub);
    if (userId && (await directory.hasSecondFactor(userId))) return { ok: false, why: 'no_second_factor' };
    return { ok: true };
  }

  /** Whether the signed-in borrower's sign-in is recent and strong enough; logged when it is not. */
  async function isRecent(request: FastifyRequest, context: Record<string, unknown> = {}) {
    const claims = borrowerClaimsOf(request);
    const verdict = await check(claims);
    if (!verdict.ok)
      request.log.info({ borrowerId: claims.sub, ...context, why: verdict.why }, 'step-up required');
    return verdict.ok;
  }

  return {
    check,
    isRecent,
    /**
     * Refuses the signed-in borrower's request with 403 `step_up_required` and `message` (what the
     * portal shows above the password) unless their sign-in is recent and strong enough.
     */
    async require(request: FastifyRequest, message: string, context: Record<string, unknown> = {}) {
      if (!(await isRecent(request, context))) throw stepUpRefusal(message);
    },
  };
}

export type StepUpGuard = ReturnType<typeof stepUpGuard>;
