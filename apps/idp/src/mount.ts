import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';

/** The issuer's path, where oidc-provider is mounted: http://host/oauth2/default -> /oauth2/default */
export function mountPathOf(issuer: string): string {
  const path = new URL(issuer).pathname.replace(/\/+$/, '');
  if (!path)
    throw new Error('the issuer needs a path (e.g. /oauth2/default) to mount the identity provider under');
  return path;
}

// Query strings here carry session tokens and codes: log the path only.
const requestSerializer = (request: FastifyRequest) => ({
  method: request.method,
  url: (request.url ?? '').split('?')[0],
  ip: request.ip,
});

/**
 * Hands every request under the issuer path to oidc-provider's own (Koa) request handler. It is
 * done in onRequest, before Fastify would parse (or refuse) the body: oidc-provider reads form
 * bodies itself. The URL is rewritten relative to the mount path and the original kept in
 * `originalUrl`, which is how oidc-provider expects to be mounted (it derives the mount path of the
 * URLs it builds from the two).
 */
export function mountProvider(app: FastifyInstance, provider: Provider, mountPath: string): void {
  const callback = provider.callback() as (req: IncomingMessage, res: ServerResponse) => Promise<void>;

  const options = {
    logSerializers: { req: requestSerializer },
    async onRequest(request: FastifyRequest, reply: FastifyReply) {
      reply.hijack(); // the response is oidc-provider's from here on; Fastify's lifecycle stops
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      const rest = (raw.url ?? '').slice(mountPath.length);
      raw.url = rest.startsWith('/') ? rest : `/${rest}`;
      void callback(raw, reply.raw); // Koa answers errors itself; it never rejects
    },
  };
  const handler = async () => {}; // never reached: onRequest hijacks
  app.all(mountPath, options, handler);
  app.all(`${mountPath}/*`, options, handler);
}
