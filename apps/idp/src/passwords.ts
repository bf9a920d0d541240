import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { semaphore, type Permit } from './semaphore.js';

// argon2id at OWASP's minimum (19 MiB, t=2, p=1). The hashing runs on libuv's thread pool, not the event loop.
// The enum is a const enum in the typings, which isolatedModules cannot inline: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// Each computation holds its 19 MiB while it runs. More at once than there are cores (libuv would run
// four) adds that memory, not speed.
const passwordWork = semaphore(availableParallelism());

export function hashPassword(password: string): Promise<string> {
  return passwordWork.run(() => hash(password, OPTIONS));
}

async function verifyIn(permit: Permit, passwordHash: string, password: string): Promise<boolean> {
  try {
    return await permit.run(() => verify(passwordHash, password));
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
export function reservePasswordCheck(maxWaiting: number): PasswordCheck | undefined {
  const permit = passwordWork.reserve(maxWaiting);
  return (
    permit && {
      verify: (passwordHash, password) => verifyIn(permit, passwordHash, password),
      release: permit.release,
    }
  );
}

let dummy: Promise<string> | undefined;

/** A hash of a random password: verifying against it makes an unknown login cost what a known one does. */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(32).toString('base64url'));
  return dummy;
}
