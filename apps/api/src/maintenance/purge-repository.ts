import { sql, type Kysely } from 'kysely';
import { SECURITY_ACTIVITY_DAYS } from '@customer-core/contracts';
import type { ApiDatabase } from '../db/schema.js';
import { auditRepository } from '../audit/audit-repository.js';
import { DEVICE_COOKIE_DAYS } from '../http/device-cookie.js';
import { retireSupersededKeys } from '../session/signing-key-repository.js';

export interface PurgeAges {
  signingKeyRetirementSeconds: number;
  sessionMaxAgeSeconds: number;
  auditRetentionDays: number;
}

/** The SQL of the maintenance purge (see startMaintenance): idempotent deletes, one table at a time. */
export function purgeRepository(db: Kysely<ApiDatabase>) {
  return {
    /** One pass of the purge. */
    async purgeExpired({
      signingKeyRetirementSeconds,
      sessionMaxAgeSeconds,
      auditRetentionDays,
    }: PurgeAges): Promise<void> {
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
      // A console session ends within hours; its record (who was signed in when) is the audit trail's.
      await db
        .deleteFrom('console_session')
        .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
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
      // Events told to the lender's systems 90 days ago and done with (their deliveries go with them);
      // one still to be delivered (its endpoint off for failures) stays.
      await db
        .deleteFrom('webhook_event')
        .where('created_at', '<', sql<Date>`now() - interval '90 days'`)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_delivery')
                .select('webhook_delivery.id')
                .whereRef('webhook_delivery.event_id', '=', 'webhook_event.id')
                .where('webhook_delivery.status', 'in', ['pending', 'delivering']),
            ),
          ),
        )
        .execute();
      await auditRepository(db).purgeOlderThan(auditRetentionDays);
    },
  };
}

export type PurgeRepository = ReturnType<typeof purgeRepository>;
