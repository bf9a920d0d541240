import { createHash } from 'node:crypto';
import { networkOf } from '@customer-core/contracts/server';
import type { LinkRequestLimits } from '../config/config.js';
import type { ApiTransaction } from '../db/schema.js';
import type { RequestCountRepository } from './request-count-repository.js';

/**
 * Counts requests for e-mailed links in fixed windows, in the database, so every instance shares the
 * count: per client address, per e-mail address and client together, and per e-mail address. The
 * owner of an address asking from their own client is not silenced by requests from anyone else's.
 * Concurrent requests each get their own number. A `scope` keeps another flow's counts apart (its
 * buckets are prefixed with it).
 */
export function linkRequestCounter(
  counts: RequestCountRepository,
  limits: LinkRequestLimits,
  scope?: string,
) {
  const prefix = scope ? `${scope}:` : '';

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
    /** Counts this request, in `trx` when given; true while every count is within its limit. */
    async allow(request: { email: string; client: string }, trx?: ApiTransaction): Promise<boolean> {
      const buckets = bucketsOf(request);
      const [byClient, byAddressAndClient] = await counts.count(
        [buckets.client, buckets.addressAndClient],
        limits.windowSeconds,
        trx,
      );
      if (byClient! > limits.perClient || byAddressAndClient! > limits.perAddressAndClient) return false;
      const [byAddress] = await counts.count([buckets.address], limits.windowSeconds, trx);
      return byAddress! <= limits.perAddress;
    },

    /**
     * Whether one more request would be allowed now, counting nothing: for an action that counts only
     * once it has succeeded (allow() then), so failed attempts use up none of the limit.
     */
    async wouldAllow(request: { email: string; client: string }): Promise<boolean> {
      const buckets = bucketsOf(request);
      const [byClient, byAddressAndClient, byAddress] = await counts.counts(
        [buckets.client, buckets.addressAndClient, buckets.address],
        limits.windowSeconds,
      );
      return (
        byClient! < limits.perClient &&
        byAddressAndClient! < limits.perAddressAndClient &&
        byAddress! < limits.perAddress
      );
    },
  };
}
