// The identity provider counts its lockout, and the API its own rate limits, per client address and
// network: both read them alike, so one client is one client to both.

/** What of a request (Fastify's, node's) its client address is read from. */
export interface ClientRequest {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string | undefined };
}

/**
 * The address a request came from, for lockout and rate limits. Behind a load balancer (trustProxy)
 * it is the last X-Forwarded-For entry, the one the balancer itself appended: entries to its left
 * are whatever the client sent, and keying on them would let anyone pick a fresh address per try.
 */
export function clientAddress(request: ClientRequest, trustProxy: boolean): string {
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

/**
 * The network a client address counts for: an IPv4 address itself, an IPv6 address its /64 (one
 * subscriber usually has a whole /64, and would otherwise get a fresh count for every address in it).
 */
export function networkOf(address: string): string {
  if (!address.includes(':') || address.includes('.')) return address;
  const [head = '', tail] = address.split('%')[0]!.split('::') as [string, string | undefined];
  const groups = (part: string) => (part ? part.split(':') : []);
  const missing = 8 - groups(head).length - groups(tail ?? '').length;
  const full = [
    ...groups(head),
    ...(tail === undefined ? [] : Array<string>(missing).fill('0')),
    ...groups(tail ?? ''),
  ];
  return `${full
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}
