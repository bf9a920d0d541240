import { DEFAULT_LOCALE, routes } from '@customer-core/contracts';
import { oneTimeTokenHash } from '@customer-core/database';
import type { FastifyBaseLogger } from 'fastify';
import type { Borrower } from '../borrowers/borrower-repository.js';
import { borrowerLocale, type Directory } from '../identity/directory.js';
import type { LinkRequestLimits } from '../config/config.js';
import type { RequestCountRepository } from '../email-links/request-count-repository.js';
import { linkRequestCounter } from '../email-links/request-limits.js';
import { deviceIn, type MailService } from '../mail/index.js';
import type { NewSignInNotices, SignInDevice } from '../session/sessions.js';
import { LINK_TOKEN_TTL_MINUTES, type LinkTokenRepository } from '../email-links/link-token-repository.js';
import { approximateAddress, deviceParts } from '../activity/device.js';
import type { KnownDeviceQueries, KnownDeviceRepository } from './known-device-repository.js';

/** What a sign-in was to the borrower's devices. */
export type DeviceSighting = 'first' | 'known' | 'new';

// A device id is a random secret like a one-time token's, and is stored the same way.
const deviceHash = oneTimeTokenHash;

/**
 * Notices of sign-ins from a browser the borrower has not used before. Each browser carries a
 * long-lived device cookie; the hash of it is remembered per borrower. The first browser a borrower
 * ever signs in with is remembered quietly; a sign-in from any other new one e-mails them "New sign-in
 * to your account" with a one-time "This wasn't me" link (unrecognized-sign-in.ts). The e-mails count
 * against the e-mailed-link limits, scoped apart, so a flood of sign-ins cannot flood the mailbox.
 */
export function newSignIns(deps: {
  devices: KnownDeviceRepository;
  mail: MailService;
  tokens: LinkTokenRepository;
  directory: Directory;
  requestCounts: RequestCountRepository;
  /** EMAIL_LINK_*: the same limits as e-mailed links, counted apart. */
  limits: LinkRequestLimits;
  publicUrl: string;
  /** NEW_SIGN_IN_EMAILS: off where the identity provider sends its own (a hosted org's notices). */
  enabled: boolean;
  logger: FastifyBaseLogger;
}) {
  const { devices, mail, tokens, directory, publicUrl, logger } = deps;
  // Per address, and per address and network.
  const counter = linkRequestCounter(deps.requestCounts, deps.limits, 'new-sign-in');

  /** Adds a device not seen before and says whether it is new to the borrower or their first. */
  async function add(known: KnownDeviceQueries, borrowerId: string, hash: string): Promise<DeviceSighting> {
    // Of two sign-ins from one new device at once, one inserts: the other is told it is known.
    if (!(await known.add(borrowerId, hash))) return 'known';
    return (await known.hasOther(borrowerId, hash)) ? 'new' : 'first';
  }

  return {
    deviceHash,

    /**
     * A sign-in from a device that was not the borrower's as its session began (a known device's
     * sighting is marked in the statement that begins the session): remembers it, and e-mails the
     * borrower when it is new to them.
     */
    async signedIn(borrower: Borrower, device: SignInDevice): Promise<DeviceSighting> {
      const signedInAt = new Date();
      const hash = deviceHash(device.deviceId);
      // Read before the transaction opens: the directory may be a hosted org, far away.
      const locale = deps.enabled ? await borrowerLocale(directory, borrower) : DEFAULT_LOCALE;
      const notified = await devices.transaction(async (known, trx) => {
        const sighting = await add(known, borrower.id, hash);
        if (sighting !== 'new' || !deps.enabled) return sighting;
        // Only the directory's own users have the password reset the link leads to.
        if (!borrower.idpSubject || borrower.idpIssuer !== directory.issuer) return sighting;
        if (!(await counter.allow({ email: borrower.email, client: device.clientAddress ?? '' }, trx))) {
          logger.warn({ borrowerId: borrower.id }, 'new-sign-in e-mail not sent: limit reached');
          return sighting;
        }
        const issued = await tokens.issue(
          {
            purpose: 'unrecognized_sign_in',
            idpUserId: borrower.idpSubject,
            returnTo: null,
          },
          trx,
        );
        const { browser, system } = deviceParts(device.userAgent ?? null);
        const message = mail.templates.newSignInEmail({
          firstName: borrower.firstName,
          locale,
          device: deviceIn(locale, browser, system),
          signedInAt,
          approximateAddress: device.clientAddress ? approximateAddress(device.clientAddress) : null,
          reportUrl: `${publicUrl}${routes.unrecognizedSignIn.href({ token: issued.token })}`,
          expiresInMinutes: LINK_TOKEN_TTL_MINUTES.unrecognized_sign_in,
        });
        await mail.enqueue(
          {
            ...message,
            to: borrower.email,
            idempotencyKey: `${message.kind}:${issued.id}`,
          },
          trx,
        );
        return 'notified' as const;
      });
      if (notified !== 'notified') return notified;
      mail.nudge();
      logger.info({ borrowerId: borrower.id }, 'new-sign-in e-mail sent');
      return 'new';
    },
  } satisfies NewSignInNotices;
}
