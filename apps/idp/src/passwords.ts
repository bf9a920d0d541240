import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { semaphore, type Permit } from './semaphore.js';

// The hashing runs on libuv's thread pool, not the event loop.
// The enum is a const enum in the typings, which isolatedModules cannot inline: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

/** The argon2id cost of a new password hash. A hash carries its own, so any stored one verifies. */
export interface PasswordHashCost {
  /** KiB each computation holds while it runs. */
  memoryCost: number;
  /** Passes over that memory. */
  timeCost: number;
  /** Lanes (threads) of one computation. */
  parallelism: number;
}

/** OWASP's minimum for argon2id (19 MiB, t=2, p=1): what every identity provider hashes at unless its creator says otherwise. */
export const OWASP_PASSWORD_HASH_COST: PasswordHashCost = Object.freeze({
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
});

// Each computation holds its memory while it runs and a core for its whole length. More at once than
// there are cores (libuv would run four) adds that memory, not speed; as many as there are cores leaves
// none for the rest of a sign-in, the other requests and the event loop, which a flood of guesses then
// starves. So one core is left to them (bench/README.md: 19 MiB less at the peak, health checks answered
// sooner during a flood, the same sign-ins per second: argon2id is under half of a sign-in's CPU). One
// line for the process, whatever instance asks.
export const PASSWORD_CHECKS_AT_ONCE = Math.max(1, availableParallelism() - 1);
const passwordWork = semaphore(PASSWORD_CHECKS_AT_ONCE);

export interface PasswordHasher {
  /** An argon2id hash of `password` at this hasher's cost. */
  hash(password: string): Promise<string>;
  /**
   * A hash of a random password at the same cost: verifying against it makes an unknown login cost
   * what a known one does. Made once, on first use.
   */
  dummyHash(): Promise<string>;
}

export function passwordHasher(cost: PasswordHashCost): PasswordHasher {
  const options = { algorithm: ARGON2ID, ...cost };
  const hashPassword = (password: string) => passwordWork.run(() => hash(password, options));
  let dummy: Promise<string> | undefined;
  return {
    hash: hashPassword,
    dummyHash: () => (dummy ??= hashPassword(randomBytes(32).toString('base64url'))),
  };
}

/** Password checks waiting for a core in this process (all instances share the line). */
export const passwordChecksWaiting = () => passwordWork.waitingCount();

async function verifyIn(
  permit: Permit,
  passwordHash: string,
  password: string,
  onTurn?: (waitedSeconds: number) => void,
): Promise<boolean> {
  const asked = performance.now();
  try {
    // The parameters are read from the hash: one made at another cost verifies as well.
    return await permit.run(() => {
      onTurn?.((performance.now() - asked) / 1000);
      return verify(passwordHash, password);
    });
  } catch {
    return false; // a malformed stored hash is a failed sign-in, not a server error
  }
}

export interface PasswordCheck {
  /** Verifies in this check's turn; once. */
  verify(passwordHash: string, password: string): Promise<boolean>;
  /** Gives up the place in line unused (harmless after verify). */
  release(): void;
}

/**
 * A place in line for one password check, or undefined when `maxWaiting` checks already wait for
 * a core: a flood of sign-ins is then refused at once instead of making everyone wait behind it.
 */
export function reservePasswordCheck(
  maxWaiting: number,
  /** Told how long the check waited for its turn (metrics). */
  onTurn?: (waitedSeconds: number) => void,
): PasswordCheck | undefined {
  const permit = passwordWork.reserve(maxWaiting);
  return (
    permit && {
      verify: (passwordHash, password) => verifyIn(permit, passwordHash, password, onTurn),
      release: permit.release,
    }
  );
}
