import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from './db/schema.js';

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Deletes rows that can no longer matter: revocations of sessions past their maximum age, and lookup
 * tokens a day after they expired (kept that long to answer "what happened to this token?").
 * Every instance runs it; the deletes are idempotent.
 */
export function startMaintenance(db: Kysely<ApiDatabase>, log: FastifyBaseLogger): () => void {
  const purge = async () => {
    await db
      .deleteFrom('revoked_session')
      .where('expires_at', '<', sql<Date>`now()`)
      .execute();
    await db
      .deleteFrom('lookup_token')
      .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
      .execute();
  };
  const timer = setInterval(() => {
    purge().catch((err: unknown) => log.warn({ err }, 'purging expired session data failed'));
  }, PURGE_INTERVAL_MS).unref();
  return () => clearInterval(timer);
}
