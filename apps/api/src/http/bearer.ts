import type { FastifyRequest } from 'fastify';

/** The token of an `Authorization: Bearer …` header (a borrower's access token, a service credential). */
export function bearerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}
