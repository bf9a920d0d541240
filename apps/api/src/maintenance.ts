import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { SECURITY_ACTIVITY_DAYS } from '@customer-core/contracts';
import type { ApiDatabase } from './db/schema.js';
import { DEVICE_COOKIE_DAYS } from './http/device-cookie.js';
import { retireSupersededKeys } from './session/signing-keys.js';

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Deletes rows that can no longer matter: sessions and their revocations past their maximum age, exchanged ID
 * tokens past their expiry (refused as expired from then on), lookup and
 * e-mailed link tokens and invitations a day after they expired (kept that long to answer "what
 * happened to this token?"), old rate-limit counts, and signing keys superseded long enough ago that no
 * token they signed is current, and security events older than the 90 days the borrower sees. Loan applications are records, never purged.
 * Every instance runs it; the deletes are idempotent.
 */
export function startMaintenance(
  db: Kysely<ApiDatabase>,
  log: FastifyBaseLogger,
  ages: PurgeAges,
): () => void {
  const timer = setInterval(() => {
    purgeExpired(db, ages).catch((err: unknown) => log.warn({ err }, 'purging expired session data failed'));
  }, PURGE_INTERVAL_MS).unref();
  return () => clearInterval(timer);
}

export interface PurgeAges {
  signingKeyRetirementSeconds: number;
  sessionMaxAgeSeconds: number;
}

/** One pass of the purge (see startMaintenance). */
export async function purgeExpired(
  db: Kysely<ApiDatabase>,
  { signingKeyRetirementSeconds, sessionMaxAgeSeconds }: PurgeAges,
): Promise<void> {
  await retireSupersededKeys(db, signingKeyRetirementSeconds);
  await db
    .deleteFrom('revoked_session')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  // A session past its maximum age refreshes no more, and its tokens have expired with it.
  await db
    .deleteFrom('product_session')
    .where(
      'created_at',
      '<',
      sql<Date>`now() - make_interval(secs => ${sessionMaxAgeSeconds}) - interval '1 day'`,
    )
    .execute();
  await db
    .deleteFrom('exchanged_id_token')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  await db
    .deleteFrom('lookup_token')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
  await db
    .deleteFrom('link_token')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
  await db
    .deleteFrom('invitation')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
  await db
    .deleteFrom('security_event')
    .where('occurred_at', '<', sql<Date>`now() - make_interval(days => ${SECURITY_ACTIVITY_DAYS})`)
    .execute();
  // A browser unseen for as long as its device cookie lives is new again when it comes back.
  await db
    .deleteFrom('known_device')
    .where('last_seen_at', '<', sql<Date>`now() - make_interval(days => ${DEVICE_COOKIE_DAYS})`)
    .execute();
  // Rate-limit windows are minutes long: a count a day old counts for nothing.
  await db
    .deleteFrom('link_request_count')
    .where('window_started_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
