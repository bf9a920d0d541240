import { sql, type Kysely, type Transaction } from 'kysely';
import { routes } from '@customer-core/contracts';
import { oneTimeTokenHash } from '@customer-core/database';
import type { FastifyBaseLogger } from 'fastify';
import type { Borrower } from '../borrowers/borrower-repository.js';
import type { ApiDatabase } from '../db/schema.js';
import type { Directory } from '../identity/directory.js';
import type { LinkRequestCounter } from '../email-links/request-limits.js';
import type { MailService } from '../mail/index.js';
import { LINK_TOKEN_TTL_MINUTES, type LinkTokenStore } from '../email-links/link-tokens.js';
import { approximateAddress, describeDevice } from './device.js';

/** What a sign-in was to the borrower's devices. */
export type DeviceSighting = 'first' | 'known' | 'new';

export interface SignInDevice {
  /** The browser's device cookie (see http/device-cookie.ts). */
  deviceId: string;
  userAgent?: string | undefined;
  clientAddress?: string | undefined;
}

type Executor = Transaction<ApiDatabase> | Kysely<ApiDatabase>;

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
  db: Kysely<ApiDatabase>;
  mail: MailService;
  tokens: LinkTokenStore;
  directory: Directory;
  counter: LinkRequestCounter;
  publicUrl: string;
  /** NEW_SIGN_IN_EMAILS: off where the identity provider sends its own (a hosted org's notices). */
  enabled: boolean;
  logger: FastifyBaseLogger;
}) {
  const { db, mail, tokens, directory, counter, publicUrl, logger } = deps;

  /** A known device's sighting: one statement, outside any transaction (what most sign-ins are). */
  async function seenBefore(borrowerId: string, hash: string): Promise<boolean> {
    const seen = await db
      .updateTable('known_device')
      .set({ last_seen_at: sql<Date>`now()` })
      .where('borrower_id', '=', borrowerId)
      .where('device_hash', '=', hash)
      .executeTakeFirst();
    return seen.numUpdatedRows > 0n;
  }

  /** Adds a device not seen before and says whether it is new to the borrower or their first. */
  async function add(trx: Executor, borrowerId: string, hash: string): Promise<DeviceSighting> {
    // Of two sign-ins from one new device at once, one inserts: the other is told it is known.
    const added = await trx
      .insertInto('known_device')
      .values({ borrower_id: borrowerId, device_hash: hash })
      .onConflict((oc) => oc.columns(['borrower_id', 'device_hash']).doNothing())
      .executeTakeFirst();
    if ((added.numInsertedOrUpdatedRows ?? 0n) === 0n) return 'known';
    const other = await trx
      .selectFrom('known_device')
      .select('device_hash')
      .where('borrower_id', '=', borrowerId)
      .where('device_hash', '<>', hash)
      .limit(1)
      .executeTakeFirst();
    return other ? 'new' : 'first';
  }

  return {
    /** Remembers the sign-in's device; e-mails the borrower when it is new to them. */
    async signedIn(borrower: Borrower, device: SignInDevice): Promise<DeviceSighting> {
      const signedInAt = new Date();
      const hash = deviceHash(device.deviceId);
      if (await seenBefore(borrower.id, hash)) return 'known';
      const notified = await db.transaction().execute(async (trx) => {
        const sighting = await add(trx, borrower.id, hash);
        if (sighting !== 'new' || !deps.enabled) return sighting;
        // Only the directory's own users have the password reset the link leads to.
        if (!borrower.idpSubject || borrower.idpIssuer !== directory.issuer) return sighting;
        if (!(await counter.allow(trx, { email: borrower.email, client: device.clientAddress ?? '' }))) {
          logger.warn({ borrowerId: borrower.id }, 'new-sign-in e-mail not sent: limit reached');
          return sighting;
        }
        const issued = await tokens.issue(trx, {
          purpose: 'unrecognized_sign_in',
          idpUserId: borrower.idpSubject,
          returnTo: null,
        });
        const message = mail.templates.newSignInEmail({
          firstName: borrower.firstName,
          device: describeDevice(device.userAgent ?? null),
          signedInAt,
          approximateAddress: device.clientAddress ? approximateAddress(device.clientAddress) : null,
          reportUrl: `${publicUrl}${routes.unrecognizedSignIn.href({ token: issued.token })}`,
          expiresInMinutes: LINK_TOKEN_TTL_MINUTES.unrecognized_sign_in,
        });
        await mail.enqueue(trx, {
          ...message,
          to: borrower.email,
          idempotencyKey: `${message.kind}:${issued.id}`,
        });
        return 'notified' as const;
      });
      if (notified !== 'notified') return notified;
      mail.nudge();
      logger.info({ borrowerId: borrower.id }, 'new-sign-in e-mail sent');
      return 'new';
    },
  };
}

export type NewSignIns = ReturnType<typeof newSignIns>;
