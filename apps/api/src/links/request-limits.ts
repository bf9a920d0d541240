import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { networkOf } from '@customer-core/idp';
import type { ApiDatabase } from '../db/schema.js';

export interface LinkRequestLimits {
  /** Requests per e-mail address from one client address, and window: what one asker gets. */
  perAddressAndClient: number;
  /**
   * Requests per e-mail address and window from all clients together, a higher ceiling against mail
   * flooding. Only requests within their own client's limits count towards it, so a stranger can use
   * up no more of it than `perAddressAndClient` from each network they hold.
   */
  perAddress: number;
  /** Requests per client address and window, whatever the e-mail address. */
  perClient: number;
  windowSeconds: number;
}

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

  return {
    /** Counts this request; true while every count is within its limit. */
    async allow(trx: Executor, request: { email: string; client: string }): Promise<boolean> {
      // The address is kept as its hash: this table is no list of who asked.
      const address = createHash('sha256').update(request.email).digest('hex');
      const network = networkOf(request.client);
      const [byClient, byAddressAndClient] = await count(trx, [
        `${prefix}client:${network}`,
        `${prefix}address-client:${address}:${network}`,
      ]);
      if (byClient! > limits.perClient || byAddressAndClient! > limits.perAddressAndClient) return false;
      const [byAddress] = await count(trx, [`${prefix}address:${address}`]);
      return byAddress! <= limits.perAddress;
    },
  };
}

export type LinkRequestCounter = ReturnType<typeof linkRequestCounter>;

// The network a client address counts for (an IPv6 address's /64): the identity provider's rule.
export { networkOf } from '@customer-core/idp';
