import { pino } from 'pino';
import type { IdentityProviderOptions } from '../src/identity-provider.js';
import { TEST_PASSWORD_HASH_COST } from './password-hash-cost.js';

/**
 * The options of an identity provider a test creates in its own code, besides its database, secrets
 * and issuer: no client or origin, a silent log, no purge timer, and the tests' password-hash cost.
 */
export const quietProviderOptions = () =>
  ({
    clients: [],
    allowedOrigins: [],
    secureCookies: false,
    trustProxy: false,
    logger: pino({ level: 'silent' }),
    purgeIntervalSeconds: 0,
    passwordHashCost: TEST_PASSWORD_HASH_COST,
  }) satisfies Partial<IdentityProviderOptions>;
