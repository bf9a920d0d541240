import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { turns } from './turns.js';

// argon2id at OWASP's minimum (19 MiB, t=2, p=1). The hashing runs on libuv's thread pool, not the event loop.
// The enum is a const enum in the typings, which isolatedModules cannot inline: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// Each computation holds its 19 MiB while it runs. More at once than there are cores (libuv would run
// four) adds that memory, not speed.
const inTurn = turns(availableParallelism());

export function hashPassword(password: string): Promise<string> {
  return inTurn(() => hash(password, OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await inTurn(() => verify(passwordHash, password));
  } catch {
    return false; // a malformed stored hash is a failed sign-in, not a server error
  }
}

let dummy: Promise<string> | undefined;

/** A hash of a random password: verifying against it makes an unknown login cost what a known one does. */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(32).toString('base64url'));
  return dummy;
}
