import { sql, type Kysely } from 'kysely';
import type { ApiDatabase } from '../db/schema.js';

/**
 * The SQL of request counts (link_request_count): a count per bucket in fixed windows, shared by every
 * instance. Each call runs in `trx` when given (the transaction of what the request writes).
 */
export function requestCountRepository(db: Kysely<ApiDatabase>) {
  const windowEnded = (windowSeconds: number) =>
    sql<boolean>`link_request_count.window_started_at <= now() - make_interval(secs => ${windowSeconds})`;

  return {
    /**
     * Adds one request to each bucket, starting its window again once `windowSeconds` are over; the
     * count of each in its current window, in the order given. Concurrent requests each get their own
     * number.
     */
    async count(buckets: string[], windowSeconds: number, trx: Kysely<ApiDatabase> = db): Promise<number[]> {
      const ended = windowEnded(windowSeconds);
      const rows = await trx
        .insertInto('link_request_count')
        .values(buckets.map((bucket) => ({ bucket, window_started_at: sql<Date>`now()`, requests: 1 })))
        .onConflict((oc) =>
          oc.column('bucket').doUpdateSet({
            window_started_at: sql<Date>`case when ${ended} then now() else link_request_count.window_started_at end`,
            requests: sql<number>`case when ${ended} then 1 else link_request_count.requests + 1 end`,
          }),
        )
        .returning(['bucket', 'requests'])
        .execute();
      return buckets.map((bucket) => Number(rows.find((row) => row.bucket === bucket)?.requests ?? Infinity));
    },

    /** The count of each bucket in its current window (0 for none), counting nothing. */
    async counts(buckets: string[], windowSeconds: number, trx: Kysely<ApiDatabase> = db): Promise<number[]> {
      const rows = await trx
        .selectFrom('link_request_count')
        .select(['bucket', 'requests'])
        .where('bucket', 'in', buckets)
        .where(sql<boolean>`not (${windowEnded(windowSeconds)})`)
        .execute();
      return buckets.map((bucket) => rows.find((row) => row.bucket === bucket)?.requests ?? 0);
    },
  };
}

export type RequestCountRepository = ReturnType<typeof requestCountRepository>;
