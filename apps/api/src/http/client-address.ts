import type { FastifyRequest } from 'fastify';

/**
 * The address a request came from, for rate limits (as the bundled identity provider keys its own).
 * Behind a load balancer (TRUST_PROXY) it is the last X-Forwarded-For entry, the one the balancer
 * itself appended: entries to its left are whatever the client sent, and keying on them would let
 * anyone pick a fresh address per request.
 */
export function clientAddress(request: FastifyRequest, trustProxy: boolean): string {
  if (trustProxy) {
    const header = request.headers['x-forwarded-for'];
    const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .at(-1);
    if (forwarded) return normalize(forwarded);
  }
  return normalize(request.socket.remoteAddress ?? 'unknown');
}

// ::ffff:203.0.113.5 and 203.0.113.5 are one client.
const normalize = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1').toLowerCase();
