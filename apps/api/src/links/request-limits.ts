import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { networkOf } from '@customer-core/idp';
import type { ApiDatabase } from '../db/schema.js';

export interface LinkRequestLimits {
  /** Requests per e-mail address and window (known and unknown addresses alike). */
  perAddress: number;
  /** Requests per client address and window. */
  perClient: number;
  windowSeconds: number;
}

/**
 * Counts requests for e-mailed links per e-mail address and per client address in fixed windows,
 * in the database, so every instance shares the count. One statement counts both; concurrent
 * requests each get their own number. A `scope` keeps another flow's counts apart (its buckets are
 * prefixed with it).
 */
export function linkRequestCounter(limits: LinkRequestLimits, scope?: string) {
  const prefix = scope ? `${scope}:` : '';
  const windowEnded = sql<boolean>`link_request_count.window_started_at <= now() - make_interval(secs => ${limits.windowSeconds})`;
  return {
    /** Counts this request; true while both counts are within their limits. */
    async allow(
      trx: Transaction<ApiDatabase> | Kysely<ApiDatabase>,
      request: { email: string; client: string },
    ): Promise<boolean> {
      // The address is kept as its hash: this table is no list of who asked.
      const address = `${prefix}address:${createHash('sha256').update(request.email).digest('hex')}`;
      const client = `${prefix}client:${networkOf(request.client)}`;
      const rows = await trx
        .insertInto('link_request_count')
        .values([
          { bucket: address, window_started_at: sql<Date>`now()`, requests: 1 },
          { bucket: client, window_started_at: sql<Date>`now()`, requests: 1 },
        ])
        .onConflict((oc) =>
          oc.column('bucket').doUpdateSet({
            window_started_at: sql<Date>`case when ${windowEnded} then now() else link_request_count.window_started_at end`,
            requests: sql<number>`case when ${windowEnded} then 1 else link_request_count.requests + 1 end`,
          }),
        )
        .returning(['bucket', 'requests'])
        .execute();
      const count = (bucket: string) =>
        Number(rows.find((row) => row.bucket === bucket)?.requests ?? Infinity);
      return count(address) <= limits.perAddress && count(client) <= limits.perClient;
    },
  };
}

export type LinkRequestCounter = ReturnType<typeof linkRequestCounter>;

// The network a client address counts for (an IPv6 address's /64): the identity provider's rule.
export { networkOf } from '@customer-core/idp';
