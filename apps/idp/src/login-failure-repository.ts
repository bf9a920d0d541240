import { sql, type Kysely, type RawBuilder } from 'kysely';
import { SIGN_IN_LOCKOUT_FAILURES, SIGN_IN_LOCKOUT_SECONDS } from '@customer-core/contracts';
import type { IdpDatabase } from './schema.js';
import { createSecurityLogRepository } from './security-log-repository.js';

/** Wrong passwords and codes an account takes from all networks together before it refuses them all. */
export const ACCOUNT_MAX_FAILURES = 20;

export interface LoginThrottleOptions {
  /** Consecutive failures from one client network that lock the account for that network. */
  maxFailures?: number;
  lockoutSeconds?: number;
  /**
   * Wrong passwords an account takes from all networks together before every password sign-in to
   * it is refused; the count starts again after `accountQuietSeconds` without one.
   */
  accountMaxFailures?: number;
  accountQuietSeconds?: number;
  /** Told of each lockout a failure starts (metrics). */
  onLockout?: (scope: 'network' | 'account') => void;
}

/**
 * Brute-force protection in two layers, both in the database, shared by instances.
 *
 * Keycloak-style, keyed on (account, client network): after `maxFailures` consecutive failures
 * from one network the account is refused from that network for the lockout period, even with the
 * right password. Another network (the real user) is unaffected, so this lockout is no cheap way to
 * lock someone out.
 *
 * Across all networks, a ceiling: after `accountMaxFailures` wrong passwords with less than
 * `accountQuietSeconds` between them, the account refuses every password sign-in until that long
 * has passed since the last one counted. Attempts refused meanwhile are not counted, so they do not
 * extend it. However many addresses an attacker has, an account takes at most that many guesses
 * an hour; the borrower can still sign in by e-mailed link or reset the password, which ends it.
 */
export function createLoginThrottle(
  db: Kysely<IdpDatabase>,
  {
    maxFailures = SIGN_IN_LOCKOUT_FAILURES,
    lockoutSeconds = SIGN_IN_LOCKOUT_SECONDS,
    accountMaxFailures = ACCOUNT_MAX_FAILURES,
    accountQuietSeconds = 60 * 60,
    onLockout,
  }: LoginThrottleOptions = {},
) {
  if (maxFailures < 2) throw new RangeError('maxFailures must be at least 2');
  if (accountMaxFailures < 1) throw new RangeError('accountMaxFailures must be at least 1');
  const securityLog = createSecurityLogRepository(db);
  const tellLockouts = ({ lockedNow, ceilingNow }: { lockedNow: boolean; ceilingNow: boolean }) => {
    if (lockedNow) onLockout?.('network');
    if (ceilingNow) onLockout?.('account');
  };

  // The account's count is at its ceiling and its last failure recent: every password is refused.
  const ceilingHolds = sql<boolean>`(idp_account_failure.failures >= ${accountMaxFailures}
    and idp_account_failure.last_failure_at > now() - make_interval(secs => ${accountQuietSeconds}))`;
  /** A user id: a value, or (in a statement that reads the user) its column. */
  type UserId = string | RawBuilder<string>;
  const lockedFromNetwork = (userId: UserId, network: string) => sql<boolean>`exists (
    select 1 from idp_login_failure
    where user_id = ${userId} and client_address = ${network} and locked_until > now())`;
  const ceilingReached = (userId: UserId) => sql<boolean>`exists (
    select 1 from idp_account_failure where user_id = ${userId} and ${ceilingHolds})`;

  /** Whether the account refuses sign-ins from this network now (its lockout or the account's ceiling). */
  async function isLocked(userId: string, network: string): Promise<boolean> {
    const { rows } = await sql<{ locked: boolean }>`select ${lockedNow(userId, network)} as locked`.execute(
      db,
    );
    return rows[0]?.locked === true;
  }

  /** Whether sign-in is locked out from any network, or account-wide (support's view of a user). */
  async function isLockedAnywhere(userId: string): Promise<boolean> {
    const { rows } = await sql<{ locked: boolean }>`select (exists (
        select 1 from idp_login_failure where user_id = ${userId} and locked_until > now())
      or ${ceilingReached(userId)}) as locked`.execute(db);
    return rows[0]?.locked === true;
  }

  /** isLocked as an expression, for a statement that reads the user anyway (the column of its id). */
  function lockedNow(userId: UserId, network: string): RawBuilder<boolean> {
    return sql<boolean>`(${lockedFromNetwork(userId, network)} or ${ceilingReached(userId)})`;
  }

  /**
   * Counts a failure from this network and for the account; says whether it started the network's
   * lockout or brought the account to its ceiling. One statement, safe under concurrency. An id that
   * is no account's counts nothing, in the same statement. The failure, and the lockout it starts,
   * go to the security log (with the client's User-Agent when known).
   */
  async function recordFailure(
    userId: string,
    network: string,
    userAgent?: string,
  ): Promise<{ lockedNow: boolean; ceilingNow: boolean }> {
    // A lockout that has run out starts a fresh count.
    const next = sql<number>`case
      when idp_login_failure.locked_until is not null and idp_login_failure.locked_until <= now() then 1
      else idp_login_failure.failures + 1 end`;
    const quietEnough = sql<boolean>`idp_account_failure.last_failure_at <= now() - make_interval(secs => ${accountQuietSeconds})`;
    const { rows } = await sql<{ locked_now: boolean | null; ceiling_now: boolean | null }>`
      with account as (select id from idp_user where id = ${userId}),
      from_network as (
        insert into idp_login_failure (user_id, client_address, failures, last_failure_at, locked_until)
        select id, ${network}, 1, now(), null from account
        on conflict (user_id, client_address) do update set
          failures = ${next},
          last_failure_at = now(),
          locked_until = case
            when idp_login_failure.locked_until > now() then idp_login_failure.locked_until
            when ${next} >= ${maxFailures} then now() + make_interval(secs => ${lockoutSeconds})
            else null end
        returning failures, locked_until
      ),
      whole_account as (
        insert into idp_account_failure (user_id, failures, last_failure_at)
        select id, 1, now() from account
        on conflict (user_id) do update set
          failures = case
            when ${ceilingHolds} then idp_account_failure.failures
            when ${quietEnough} then 1
            else idp_account_failure.failures + 1 end,
          last_failure_at = case
            when ${ceilingHolds} then idp_account_failure.last_failure_at
            else now() end
        returning failures, last_failure_at = now() as counted
      )
      select
        (select locked_until is not null and failures = ${maxFailures} from from_network) as locked_now,
        (select counted and failures = ${accountMaxFailures} from whole_account) as ceiling_now`.execute(db);
    const outcome = { lockedNow: rows[0]?.locked_now === true, ceilingNow: rows[0]?.ceiling_now === true };
    tellLockouts(outcome);
    await securityLog.recordFailure(userId, network, {
      lockedNow: outcome.lockedNow || outcome.ceilingNow,
      userAgent,
    });
    return outcome;
  }

  /**
   * Takes one try at a one-time code (a factor's, a recovery code, a first code) from the network's
   * and the account's allowances, before the code is checked: the count and the decision are one
   * statement, so however many codes arrive at once, no more are checked than the limits allow.
   * Each upsert decides on its row as it is once locked (PostgreSQL re-reads a row updated meanwhile),
   * and the account is counted only when the network allowed the try. Refused (`allowed: false`)
   * while the network's lockout or the account's ceiling holds; the try is then not counted against
   * the account, as for a password. `lockedNow`/`ceilingNow`: this try started the lockout or reached
   * the ceiling. A right code gives its try back (codeAccepted), a wrong one is logged (codeRefused).
   */
  async function reserveCodeCheck(
    userId: string,
    network: string,
  ): Promise<{ allowed: boolean; lockedNow: boolean; ceilingNow: boolean }> {
    const next = sql<number>`case
      when idp_login_failure.locked_until is not null and idp_login_failure.locked_until <= now() then 1
      else idp_login_failure.failures + 1 end`;
    const quietEnough = sql<boolean>`idp_account_failure.last_failure_at <= now() - make_interval(secs => ${accountQuietSeconds})`;
    const { rows } = await sql<{ allowed: boolean; locked_now: boolean | null; ceiling_now: boolean | null }>`
      with from_network as (
        insert into idp_login_failure (user_id, client_address, failures, last_failure_at, locked_until)
        select id, ${network}, 1, now(), null from idp_user where id = ${userId}
        on conflict (user_id, client_address) do update set
          failures = ${next},
          last_failure_at = now(),
          locked_until = case
            when ${next} >= ${maxFailures} then now() + make_interval(secs => ${lockoutSeconds})
            else null end
        where idp_login_failure.locked_until is null or idp_login_failure.locked_until <= now()
        returning user_id, failures, locked_until
      ),
      whole_account as (
        insert into idp_account_failure (user_id, failures, last_failure_at)
        select user_id, 1, now() from from_network
        on conflict (user_id) do update set
          failures = case when ${quietEnough} then 1 else idp_account_failure.failures + 1 end,
          last_failure_at = now()
        where not ${ceilingHolds}
        returning failures
      )
      select
        exists (select 1 from whole_account) as allowed,
        (select locked_until is not null and failures = ${maxFailures} from from_network) as locked_now,
        (select failures = ${accountMaxFailures} from whole_account) as ceiling_now`.execute(db);
    const row = rows[0];
    return {
      allowed: row?.allowed === true,
      lockedNow: row?.allowed === true && row.locked_now === true,
      ceilingNow: row?.ceiling_now === true,
    };
  }

  /**
   * The code was right: the try taken by reserveCodeCheck is given back to both counts (and a
   * lockout it started is lifted), so that a right code costs nothing, as before a code was counted
   * ahead of its check.
   */
  async function codeAccepted(userId: string, network: string): Promise<void> {
    await sql`
      with from_network as (
        update idp_login_failure set
          failures = greatest(failures - 1, 0),
          locked_until = case when failures - 1 >= ${maxFailures} then locked_until else null end
        where user_id = ${userId} and client_address = ${network}
      )
      update idp_account_failure set failures = greatest(failures - 1, 0)
      where user_id = ${userId}`.execute(db);
  }

  /** The code was wrong: its try stays counted; the failure (and a lockout it started) is logged. */
  async function codeRefused(
    userId: string,
    network: string,
    reservation: { lockedNow: boolean; ceilingNow: boolean },
  ): Promise<void> {
    tellLockouts(reservation);
    await securityLog.recordFailure(userId, network, {
      lockedNow: reservation.lockedNow || reservation.ceilingNow,
    });
  }

  /**
   * What a right password does to the counts, for a statement of its own or of the write that comes
   * with it (the session token): `streakEnded` deletes the network's streak, leaving a lockout in
   * force alone; `locked` checks one in force (the network's, or the account's ceiling: it may have
   * begun meanwhile). In one statement, the check sees what the delete left. The account's count is
   * left alone: a guess that happened to come between an attacker's would otherwise give them a
   * fresh allowance.
   */
  function passwordRight(userId: string, network: string) {
    return {
      streakEnded: sql`
        delete from idp_login_failure
        where user_id = ${userId} and client_address = ${network}
          and (locked_until is null or locked_until <= now())`,
      locked: lockedNow(userId, network),
    };
  }

  /** A successful sign-in ends the network's streak (passwordRight); false when a lockout is in force. */
  async function recordSuccess(userId: string, network: string): Promise<boolean> {
    const { streakEnded, locked } = passwordRight(userId, network);
    const { rows } = await sql<{ locked: boolean }>`
      with cleared as (${streakEnded})
      select ${locked} as locked`.execute(db);
    return rows[0]?.locked !== true;
  }

  return {
    isLocked,
    isLockedAnywhere,
    lockedNow,
    recordFailure,
    passwordRight,
    recordSuccess,
    reserveCodeCheck,
    codeAccepted,
    codeRefused,
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
