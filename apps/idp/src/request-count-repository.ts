import type { FastifyRateLimitOptions, FastifyRateLimitStore } from '@fastify/rate-limit';
import { sql, type Kysely } from 'kysely';
import type { IdpDatabase } from './schema.js';

/**
 * A store for @fastify/rate-limit that counts in the database, so every instance shares one count
 * per key: fixed windows, counted by one statement (concurrent requests each get their own number),
 * as the portal counts its e-mailed-link requests.
 */
export function databaseRequestCountStore(db: Kysely<IdpDatabase>) {
  async function count(bucket: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    const windowEnded = sql<boolean>`idp_request_count.window_started_at <= now() - make_interval(secs => ${windowMs / 1000})`;
    const { rows } = await sql<{ requests: number; ttl: number }>`
      insert into idp_request_count (bucket, window_started_at, requests) values (${bucket}, now(), 1)
      on conflict (bucket) do update set
        window_started_at = case when ${windowEnded} then now() else idp_request_count.window_started_at end,
        requests = case when ${windowEnded} then 1 else idp_request_count.requests + 1 end
      returning requests,
        greatest(0, extract(epoch from window_started_at - now()) * 1000 + ${windowMs})::float8 as ttl`.execute(
      db,
    );
    const row = rows[0];
    if (!row) throw new Error('the request count returned no row');
    return { current: Number(row.requests), ttl: Math.ceil(Number(row.ttl)) };
  }

  return class DatabaseRequestCountStore implements FastifyRateLimitStore {
    constructor(_options?: FastifyRateLimitOptions) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      count(key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
