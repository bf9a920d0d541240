import type { FastifyReply, FastifyRequest } from 'fastify';

const ALLOWED_HEADERS = 'Accept, Content-Type, X-Okta-User-Agent-Extended, X-Requested-With';

/**
 * CORS for /api/v1/authn: okta-auth-js posts with credentials and an X-Okta-User-Agent-Extended
 * header, so a cross-origin portal sends a preflight. Only the portal's origins get an answer.
 */
export function createAuthnCors(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);

  function apply(request: FastifyRequest, reply: FastifyReply): void {
    reply.header('Vary', 'Origin');
    const origin = request.headers.origin;
    if (origin && allowed.has(origin)) {
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Access-Control-Allow-Credentials', 'true');
    }
  }

  return {
    apply,
    /** A browser request from an origin that is not the portal's. */
    refuses(request: FastifyRequest): boolean {
      const origin = request.headers.origin;
      return origin !== undefined && !allowed.has(origin);
    },
    preflight(request: FastifyRequest, reply: FastifyReply): void {
      apply(request, reply);
      if (reply.hasHeader('Access-Control-Allow-Origin')) {
        reply.header('Access-Control-Allow-Methods', 'POST, OPTIONS');
        reply.header('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        reply.header('Access-Control-Max-Age', '600');
      }
      reply.code(204).send();
    },
  };
}
