import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { networkOf } from '@customer-core/contracts/server';
import type { LinkRequestLimits } from '../config/config.js';
import type { ApiDatabase } from '../db/schema.js';

type Executor = Transaction<ApiDatabase> | Kysely<ApiDatabase>;

/**
 * Counts requests for e-mailed links in fixed windows, in the database, so every instance shares the
 * count: per client address, per e-mail address and client together, and per e-mail address. The
 * owner of an address asking from their own client is not silenced by requests from anyone else's.
 * Concurrent requests each get their own number. A `scope` keeps another flow's counts apart (its
 * buckets are prefixed with it).
 */
export function linkRequestCounter(limits: LinkRequestLimits, scope?: string) {
  const prefix = scope ? `${scope}:` : '';
  const windowEnded = sql<boolean>`link_request_count.window_started_at <= now() - make_interval(secs => ${limits.windowSeconds})`;

  /** Adds one request to each bucket; the count of each in its current window. */
  async function count(trx: Executor, buckets: string[]): Promise<number[]> {
    const rows = await trx
      .insertInto('link_request_count')
      .values(buckets.map((bucket) => ({ bucket, window_started_at: sql<Date>`now()`, requests: 1 })))
      .onConflict((oc) =>
        oc.column('bucket').doUpdateSet({
          window_started_at: sql<Date>`case when ${windowEnded} then now() else link_request_count.window_started_at end`,
          requests: sql<number>`case when ${windowEnded} then 1 else link_request_count.requests + 1 end`,
        }),
      )
      .returning(['bucket', 'requests'])
      .execute();
    return buckets.map((bucket) => Number(rows.find((row) => row.bucket === bucket)?.requests ?? Infinity));
  }

  /** The request's buckets: per client, per address and client, per address (hashed: no list of who asked). */
  function bucketsOf(request: { email: string; client: string }) {
    const address = createHash('sha256').update(request.email).digest('hex');
    const network = networkOf(request.client);
    return {
      client: `${prefix}client:${network}`,
      addressAndClient: `${prefix}address-client:${address}:${network}`,
      address: `${prefix}address:${address}`,
    };
  }

  return {
    /** Counts this request; true while every count is within its limit. */
    async allow(trx: Executor, request: { email: string; client: string }): Promise<boolean> {
      const buckets = bucketsOf(request);
      const [byClient, byAddressAndClient] = await count(trx, [buckets.client, buckets.addressAndClient]);
      if (byClient! > limits.perClient || byAddressAndClient! > limits.perAddressAndClient) return false;
      const [byAddress] = await count(trx, [buckets.address]);
      return byAddress! <= limits.perAddress;
    },

    /**
     * Whether one more request would be allowed now, counting nothing: for an action that counts only
     * once it has succeeded (allow() then), so failed attempts use up none of the limit.
     */
    async wouldAllow(trx: Executor, request: { email: string; client: string }): Promise<boolean> {
      const buckets = bucketsOf(request);
      const rows = await trx
        .selectFrom('link_request_count')
        .select(['bucket', 'requests'])
        .where('bucket', 'in', [buckets.client, buckets.addressAndClient, buckets.address])
        .where(sql<boolean>`not (${windowEnded})`)
        .execute();
      const used = (bucket: string) => rows.find((row) => row.bucket === bucket)?.requests ?? 0;
      return (
        used(buckets.client) < limits.perClient &&
        used(buckets.addressAndClient) < limits.perAddressAndClient &&
        used(buckets.address) < limits.perAddress
      );
    },
  };
}

export type LinkRequestCounter = ReturnType<typeof linkRequestCounter>;
