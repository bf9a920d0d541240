import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { hasControlCharacter } from '@customer-core/contracts';

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
      const raw = request.raw as IncomingMessage & { originalUrl?: string; body?: Buffer };
      const refusal = await refusedParameters(raw);
      if (refusal) {
        return reply
          .code(refusal.status)
          .header('cache-control', 'no-store')
          .send({ error: 'invalid_request', error_description: refusal.description });
      }
      reply.hijack(); // the response is oidc-provider's from here on; Fastify's lifecycle stops
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

/** oidc-provider's own cap on request bodies. */
const BODY_LIMIT = 56 * 1024;
const FORM = /^application\/x-www-form-urlencoded\b/i;

/**
 * OAuth parameters never hold control characters. They are refused here, before oidc-provider (and
 * its adapter, which looks codes and tokens up in the database) sees them: the query, and a form
 * body, which is read here and handed on as `req.body` (oidc-provider reads that when the stream has
 * been read).
 */
async function refusedParameters(
  raw: IncomingMessage & { body?: Buffer },
): Promise<{ status: number; description: string } | undefined> {
  const query = (raw.url ?? '').split('?')[1];
  if (query && controlCharacterIn(new URLSearchParams(query)))
    return { status: 400, description: 'parameters must not contain control characters' };
  // oidc-provider reads form bodies of POST requests only.
  if (raw.method !== 'POST' || !FORM.test(raw.headers['content-type'] ?? '')) return undefined;
  const body = await readBody(raw);
  if (!body) return { status: 413, description: 'the request body is too large' };
  raw.body = body;
  if (controlCharacterIn(new URLSearchParams(body.toString('utf8'))))
    return { status: 400, description: 'parameters must not contain control characters' };
  return undefined;
}

function controlCharacterIn(params: URLSearchParams): boolean {
  for (const [name, value] of params)
    if (hasControlCharacter(name) || hasControlCharacter(value)) return true;
  return false;
}

/** The whole body, or undefined past the limit (the rest is still read, so the connection stays usable). */
function readBody(raw: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    raw.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length <= BODY_LIMIT) chunks.push(chunk);
    });
    raw.on('end', () => resolve(length > BODY_LIMIT ? undefined : Buffer.concat(chunks)));
    raw.on('error', reject);
    raw.on('close', () => resolve(undefined)); // the client went away before the end
  });
}
