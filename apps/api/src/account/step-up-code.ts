import { randomUUID } from 'node:crypto';
import {
  STEP_UP_CODE_TTL_SECONDS,
  WEBAUTHN_FACTOR_TYPE,
  type StepUpCodeVerified,
  type StepUpWays,
} from '@customer-core/contracts';
import { EMAIL_LINK_AMR } from '@customer-core/contracts/server';
import type { FastifyBaseLogger } from 'fastify';
import type { BorrowerRepository } from '../borrowers/borrower-repository.js';
import type { SignInClient } from '../http/sign-in-client.js';
import type { Directory, DirectoryUser } from '../identity/directory.js';
import type { MailService } from '../mail/index.js';
import type { Sessions } from '../session/sessions.js';
import type { StepUpCodeRepository } from './step-up-code-repository.js';

// Confirming it's them with a code e-mailed to their sign-in address: the way of a borrower who signs
// in by e-mailed link and does not know their password.
//
// What the code proves is what an e-mailed link proves: the borrower reads the mailbox they sign in
// with. So it is a first proof in place of the password, with the link's amr ('email'), and never a
// second factor: it is not 'otp', and the step-up check (step-up.ts) counts it as a password. A
// borrower with a second factor goes on to it after the code, in the directory's transaction, exactly
// as after a link (an authenticator app's code, a passkey, e-mailed codes if those are their factor,
// or a recovery code): an e-mailed code never stands in for a factor they enrolled, and asks no more
// nor less than their sign-in by link does. Where the directory cannot ask for a factor after such a
// proof (a hosted org), a borrower with one is not offered the code at all.
//
// The code is bound to the borrower and to the session that asked for it (another session of theirs,
// or anyone else's, cannot use it), works once, for 5 minutes, and takes 5 wrong tries; 5 are sent in
// 15 minutes at most, and all of them take 10 wrong tries together in that time: a stolen session
// guesses about as often as the sign-in lockout lets a password be guessed.

export type StepUpCodeSend =
  { kind: 'sent'; sentTo: string } | { kind: 'not_offered' } | { kind: 'too_many_codes' };
export type StepUpCodeCheck =
  | { kind: 'verified'; answer: StepUpCodeVerified }
  | { kind: 'wrong_code' | 'spent' | 'too_many_tries' | 'not_offered' };

/** The signed-in borrower, as the step-up routes know them: their id and this session's. */
export interface StepUpSubject {
  borrowerId: string;
  sessionId: string;
}

export function stepUpByEmailCode(deps: {
  repository: StepUpCodeRepository;
  directory: Directory;
  borrowers: BorrowerRepository;
  sessions: Sessions;
  mail: MailService;
  logger: FastifyBaseLogger;
}) {
  const { repository, directory, borrowers, sessions, mail, logger } = deps;

  /** The borrower and their directory user, when their identity is the directory's. */
  async function identityOf(borrowerId: string) {
    const borrower = await borrowers.findById(borrowerId);
    if (borrower?.idpIssuer !== directory.issuer || !borrower.idpSubject) return undefined;
    const user = await directory.findById(borrower.idpSubject);
    return user && { borrower, user };
  }

  /** Whether a code can sign the user in again: not where the directory would refuse the link's way. */
  const codeOffered = async (user: DirectoryUser) =>
    directory.factorAfterLink || !(await directory.hasSecondFactor(user.id));

  return {
    /** The ways the borrower has: never one they lack, and the password always (every user has one). */
    async ways(borrowerId: string): Promise<StepUpWays> {
      const identity = await identityOf(borrowerId);
      if (!identity) return { passkey: false, emailCode: false, password: true };
      const { user } = identity;
      const factors = directory.enrolWebauthn ? await directory.listFactors(user.id) : [];
      return {
        passkey: factors.some((f) => f.factorType === WEBAUTHN_FACTOR_TYPE && f.status === 'ACTIVE'),
        emailCode: await codeOffered(user),
        password: true,
      };
    },

    /** Mails a new code to the borrower's sign-in address, good in this session only. */
    async send({ borrowerId, sessionId }: StepUpSubject): Promise<StepUpCodeSend> {
      const identity = await identityOf(borrowerId);
      if (!identity || !(await codeOffered(identity.user))) return { kind: 'not_offered' };
      const { user } = identity;
      const code = await repository.issue(borrowerId, sessionId);
      if (code === undefined) return { kind: 'too_many_codes' };
      await mail.enqueue({
        ...mail.templates.factorCodeEmail({
          firstName: user.firstName,
          locale: user.locale,
          code,
          expiresInMinutes: STEP_UP_CODE_TTL_SECONDS / 60,
          purpose: 'step-up',
        }),
        // The directory's sign-in name: the address the borrower signs in with, by link too.
        to: user.login,
        idempotencyKey: `step-up-code:${randomUUID()}`,
      });
      mail.nudge();
      return { kind: 'sent', sentTo: user.login };
    },

    /**
     * A right code signs the borrower in again as an e-mailed link does: the directory's session token
     * (or, where it mints none, a product session begun here, its amr the link's), or the transaction
     * of their second factor, which comes next.
     */
    async verify({ borrowerId, sessionId }: StepUpSubject, code: string, client: SignInClient) {
      const identity = await identityOf(borrowerId);
      if (!identity) return { kind: 'not_offered' } satisfies StepUpCodeCheck;
      const claimed = await repository.claim(borrowerId, sessionId, code.trim());
      if (claimed !== 'accepted') {
        logger.info({ borrowerId, outcome: claimed }, 'step-up code refused');
        return { kind: claimed } satisfies StepUpCodeCheck;
      }
      const step = await directory.linkSignIn(identity.user);
      logger.info({ borrowerId, next: step.kind }, 'step-up code accepted');
      if (step.kind === 'factor_unavailable') return { kind: 'not_offered' } satisfies StepUpCodeCheck;
      if (step.kind === 'factor') return verified({ stateToken: step.stateToken });
      if (step.sessionToken !== null) return verified({ sessionToken: step.sessionToken });
      const accessToken = await sessions.begin(identity.borrower, {
        method: 'email_link',
        userAgent: client.userAgent,
        clientAddress: client.clientAddress,
        deviceId: client.deviceId(),
        authentication: { amr: EMAIL_LINK_AMR, authTime: null },
      });
      return verified({ access_token: accessToken });
    },
  };
}

const verified = (answer: StepUpCodeVerified): StepUpCodeCheck => ({ kind: 'verified', answer });

export type StepUpByEmailCode = ReturnType<typeof stepUpByEmailCode>;
