import { randomUUID } from 'node:crypto';
import { DEFAULT_LOCALE, routes, sameOriginPath, type Locale } from '@customer-core/contracts';
import type { LinkPurpose } from '../db/schema.js';
import type { MailService } from '../mail/index.js';
import { LINK_TOKEN_TTL_MINUTES } from './link-token-repository.js';
import type { LinkRequestRepository } from './link-request-repository.js';
import { linkRedemption, type LinkRedemptionDependencies } from './link-redemption.js';
import type { LinkRequestLimits } from '../config/config.js';
import type { RequestCountRepository } from './request-count-repository.js';
import { linkRequestCounter } from './request-limits.js';

/** What became of a request for a link; the caller answers the same in every case. */
export type LinkRequestOutcome = 'sent' | 'unknown_address' | 'limited';

export interface LinkRequest {
  /** Normalised (trimmed, lower case) as EmailSchema gives it. */
  email: string;
  /** Where a sign-in link leads afterwards; anything but a same-origin path is dropped. */
  returnTo?: string | undefined;
  /** The client address, for the per-client limit. */
  client: string;
}

export interface EmailLinkDependencies extends LinkRedemptionDependencies {
  repository: LinkRequestRepository;
  requestCounts: RequestCountRepository;
  mail: MailService;
  /** EMAIL_LINK_*: requests per client, per address and client, per address. */
  limits: LinkRequestLimits;
  publicUrl: string;
}

// Stands in for an unknown address in the work that is rolled back (see request()). The .invalid
// top-level domain never receives mail (RFC 2606), should a decoy ever escape its rollback.
const DECOY_RECIPIENT = 'nobody@unknown-address.invalid';

/**
 * Password-reset and sign-in links by e-mail: the token and the message that carries it are written in
 * one transaction (the outbox), and the request never waits on delivery; redeeming them is
 * link-redemption.ts.
 */
export function emailLinks(dependencies: EmailLinkDependencies) {
  const { repository, mail, tokens, publicUrl, directory, borrowers, sessions } = dependencies;
  const counter = linkRequestCounter(dependencies.requestCounts, dependencies.limits);
  function messageFor(purpose: LinkPurpose, token: string, firstName: string | null, locale: Locale) {
    const expiresInMinutes = LINK_TOKEN_TTL_MINUTES[purpose];
    return purpose === 'password_reset'
      ? mail.templates.passwordResetEmail({
          firstName,
          locale,
          resetUrl: `${publicUrl}${routes.passwordReset.href({ token })}`,
          expiresInMinutes,
        })
      : mail.templates.magicLinkEmail({
          firstName,
          locale,
          signInUrl: `${publicUrl}${routes.magicLinkLanding.href({ token })}`,
          expiresInMinutes,
        });
  }

  return {
    /**
     * Counts the request against both limits and, for a known address within them, issues the token
     * and enqueues its e-mail in the same transaction. Call `mail.nudge()` after answering when 'sent'.
     *
     * No timing signal tells a known address from an unknown one: both take the same steps, the same
     * database statements in one committed transaction. For an unknown address the token and e-mail
     * are written for a decoy inside a savepoint that is rolled back, as sign-in verifies a dummy
     * password hash for an unknown login. Nothing of it remains; only the request count is kept.
     */
    async request(purpose: LinkPurpose, request: LinkRequest): Promise<LinkRequestOutcome> {
      const user = await directory.findByLogin(request.email);
      const returnTo = purpose === 'magic_link' ? sameOriginPath(request.returnTo) : null;
      return repository.transaction(async (tx, trx) => {
        if (!(await counter.allow({ email: request.email, client: request.client }, trx))) return 'limited';
        await tx.savepoint();
        const issued = await tokens.issue(
          {
            purpose,
            idpUserId: user?.id ?? randomUUID(),
            returnTo,
          },
          trx,
        );
        // In the language of the user's profile.
        const message = messageFor(
          purpose,
          issued.token,
          user ? user.firstName : 'Borrower',
          user?.locale ?? DEFAULT_LOCALE,
        );
        await mail.enqueue(
          {
            ...message,
            to: user?.login ?? DECOY_RECIPIENT,
            idempotencyKey: `${message.kind}:${issued.id}`,
          },
          trx,
        );
        if (!user) {
          await tx.rollbackToSavepoint();
          return 'unknown_address';
        }
        await tx.releaseSavepoint();
        return 'sent';
      });
    },

    ...linkRedemption({ tokens, directory, borrowers, sessions }),
  };
}

export type EmailLinks = ReturnType<typeof emailLinks>;
