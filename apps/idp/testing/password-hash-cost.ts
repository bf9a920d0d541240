import type { PasswordHashCost } from '../src/passwords.js';

/**
 * The password-hash cost of the identity providers tests start: still argon2id, at 1 MiB and one pass
 * instead of production's 19 MiB and two, about a fortieth of the CPU. Tests create and sign in hundreds of
 * users; only those whose subject is the hashing itself (its parameters, a flood filling the line of
 * password checks) keep production's cost, OWASP_PASSWORD_HASH_COST.
 */
export const TEST_PASSWORD_HASH_COST: PasswordHashCost = Object.freeze({
  memoryCost: 1024,
  timeCost: 1,
  parallelism: 1,
});
