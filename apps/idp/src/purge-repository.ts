import { sql, type Kysely } from 'kysely';
import type { IdpDatabase } from './schema.js';

/**
 * Expired session tokens, failure streaks that no longer matter (a day without news, no lockout),
 * security events older than 90 days and request counts of windows long over.
 */
export async function purgeExpiredSignInState(db: Kysely<IdpDatabase>): Promise<void> {
  await db
    .deleteFrom('idp_session_token')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
  await db
    .deleteFrom('idp_authn_transaction')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
  await db
    .deleteFrom('idp_webauthn_challenge')
    .where('expires_at', '<=', sql<Date>`now()`)
    .execute();
  await db
    .deleteFrom('idp_login_failure')
    .where('last_failure_at', '<', sql<Date>`now() - interval '1 day'`)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', sql<Date>`now()`)]))
    .execute();
  await db
    .deleteFrom('idp_account_failure')
    .where('last_failure_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
  // The portal shows 90 days of security activity.
  await db
    .deleteFrom('idp_security_event')
    .where('published', '<', sql<Date>`now() - interval '90 days'`)
    .execute();
  await db
    .deleteFrom('idp_request_count')
    .where('window_started_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
