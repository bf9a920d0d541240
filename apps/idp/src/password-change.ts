import type { FastifyBaseLogger } from 'fastify';
import type { LoginThrottle } from './login-failure-repository.js';
import { reservePasswordCheck } from './passwords.js';
import type { IdpUser, UserRepository } from './user-repository.js';

/** Every core is busy checking passwords and the line is full: the caller may try again shortly. */
export class PasswordCheckBusyError extends Error {
  constructor() {
    super('Password checks are queued to the limit');
    this.name = 'PasswordCheckBusyError';
  }
}

/**
 * A signed-in user's password change: the current password is checked as a sign-in checks it, with
 * the same lockout (a wrong one counts as a wrong sign-in; a lockout in force refuses even the right
 * one), so the form is no cheaper way to guess. The caller sets the new password when it is right.
 */
export function passwordVerifier(deps: {
  users: UserRepository;
  throttle: LoginThrottle;
  signInQueueDepth: number;
  logger: FastifyBaseLogger;
}) {
  const { users, throttle, logger } = deps;

  /** The user when `password` is theirs and no lockout holds for `network`; undefined otherwise. */
  return async function verifyCurrentPassword(
    userId: string,
    password: string,
    network: string,
  ): Promise<IdpUser | undefined> {
    const check = reservePasswordCheck(deps.signInQueueDepth);
    if (!check) throw new PasswordCheckBusyError();
    const user = await users.findById(userId);
    const credentials = user && (await users.findCredentials(user.login));
    if (!credentials) {
      check.release();
      return undefined;
    }
    const locked = await throttle.isLocked(userId, network);
    const valid = await check.verify(credentials.passwordHash, password);
    if (valid && !locked) {
      if (await throttle.recordSuccess(userId, network)) return credentials.user;
      logger.warn(
        { userId, clientNetwork: network },
        'password change refused: account locked for this address',
      );
      return undefined;
    }
    // As a sign-in: a try while locked counts too (the throttle leaves the account's ceiling alone then).
    const { lockedNow, ceilingNow } = await throttle.recordFailure(userId, network);
    if (locked)
      logger.warn(
        { userId, clientNetwork: network },
        'password change refused: account locked for this address',
      );
    else logger.info({ userId, outcome: 'wrong_password' }, 'password change: wrong current password');
    if (lockedNow) logger.warn({ userId, clientNetwork: network }, 'account locked for this address');
    if (ceilingNow) logger.warn({ userId }, 'account refuses password sign-in: too many wrong passwords');
    return undefined;
  };
}

export type VerifyCurrentPassword = ReturnType<typeof passwordVerifier>;
