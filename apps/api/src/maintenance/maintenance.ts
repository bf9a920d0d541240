import type { FastifyBaseLogger } from 'fastify';
import type { PurgeAges, PurgeRepository } from './purge-repository.js';

export type { PurgeAges } from './purge-repository.js';

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Deletes rows that can no longer matter: sessions and their revocations past their maximum age, exchanged ID
 * tokens past their expiry (refused as expired from then on), lookup and
 * e-mailed link tokens and invitations a day after they expired (kept that long to answer "what
 * happened to this token?"), old rate-limit counts, and signing keys superseded long enough ago that no
 * token they signed is current, and security events older than the 90 days the borrower sees. Loan applications are records, never purged.
 * Every instance runs it; the deletes are idempotent.
 */
export function startMaintenance(
  repository: PurgeRepository,
  log: FastifyBaseLogger,
  ages: PurgeAges,
): () => void {
  const timer = setInterval(() => {
    repository
      .purgeExpired(ages)
      .catch((err: unknown) => log.warn({ err }, 'purging expired session data failed'));
  }, PURGE_INTERVAL_MS).unref();
  return () => clearInterval(timer);
}
