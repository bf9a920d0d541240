import { sql, type Kysely } from 'kysely';
import type { IdpDatabase } from './schema.js';

/**
 * Keycloak-style brute-force protection keyed on (account, client address): after `maxFailures`
 * consecutive failures from one address the account is refused from that address for the lockout
 * period, even with the right password. Another address (the real user) is unaffected, so the
 * lockout is not a cheap way to lock someone out. State lives in the database, shared by instances.
 */
export function createLoginThrottle(
  db: Kysely<IdpDatabase>,
  { maxFailures = 10, lockoutSeconds = 15 * 60 }: { maxFailures?: number; lockoutSeconds?: number } = {},
) {
  if (maxFailures < 2) throw new RangeError('maxFailures must be at least 2');
  async function isLocked(userId: string, clientAddress: string): Promise<boolean> {
    const row = await db
      .selectFrom('idp_login_failure')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('client_address', '=', clientAddress)
      .where('locked_until', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Counts a failure; true when this failure started a lockout. One statement, safe under
   * concurrency. An id that is no account's counts nothing, in the same statement.
   */
  async function recordFailure(userId: string, clientAddress: string): Promise<boolean> {
    // A lockout that has run out starts a fresh count.
    const next = sql<number>`case
      when idp_login_failure.locked_until is not null and idp_login_failure.locked_until <= now() then 1
      else idp_login_failure.failures + 1 end`;
    const row = await db
      .insertInto('idp_login_failure')
      .columns(['user_id', 'client_address', 'failures', 'last_failure_at', 'locked_until'])
      .expression(
        db
          .selectFrom('idp_user')
          .select((eb) => [
            'id',
            eb.val(clientAddress).as('client_address'),
            sql<number>`1`.as('failures'),
            sql<Date>`now()`.as('last_failure_at'),
            sql<Date | null>`null::timestamptz`.as('locked_until'),
          ])
          .where('id', '=', userId),
      )
      .onConflict((oc) =>
        oc.columns(['user_id', 'client_address']).doUpdateSet({
          failures: next,
          last_failure_at: sql<Date>`now()`,
          locked_until: sql<Date | null>`case
            when idp_login_failure.locked_until > now() then idp_login_failure.locked_until
            when ${next} >= ${maxFailures} then now() + make_interval(secs => ${lockoutSeconds})
            else null end`,
        }),
      )
      .returning(['failures', 'locked_until'])
      .executeTakeFirst();
    return row !== undefined && row.locked_until !== null && row.failures === maxFailures;
  }

  /** A successful sign-in ends the streak; false when a lockout is in force (it may have begun meanwhile). */
  async function recordSuccess(userId: string, clientAddress: string): Promise<boolean> {
    // One statement: the delete leaves a lockout in force alone, and the check sees it.
    const { rows } = await sql<{ locked: boolean }>`
      with cleared as (
        delete from idp_login_failure
        where user_id = ${userId} and client_address = ${clientAddress}
          and (locked_until is null or locked_until <= now())
      )
      select exists (
        select 1 from idp_login_failure
        where user_id = ${userId} and client_address = ${clientAddress} and locked_until > now()
      ) as locked`.execute(db);
    return rows[0]?.locked !== true;
  }

  return { isLocked, recordFailure, recordSuccess };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
