import { IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { hasControlCharacter } from '@customer-core/contracts';
import { hasMalformedIdTokenHint } from './id-token-hint.js';

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
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      const screened = await screenParameters(raw);
      if ('refusal' in screened) {
        return reply
          .code(screened.refusal.status)
          .header('cache-control', 'no-store')
          .send({ error: 'invalid_request', error_description: screened.refusal.description });
      }
      reply.hijack(); // the response is oidc-provider's from here on; Fastify's lifecycle stops
      raw.originalUrl = raw.url;
      const rest = (raw.url ?? '').slice(mountPath.length);
      raw.url = rest.startsWith('/') ? rest : `/${rest}`;
      const forProvider = screened.body ? withBodyToRead(raw, screened.body) : raw;
      void callback(forProvider, reply.raw); // Koa answers errors itself; it never rejects
    },
  };
  const handler = async () => {}; // never reached: onRequest hijacks
  app.all(mountPath, options, handler);
  app.all(`${mountPath}/*`, options, handler);
}

/** oidc-provider's own cap on request bodies. */
const BODY_LIMIT = 56 * 1024;
const FORM = /^application\/x-www-form-urlencoded\b/i;

type Refusal = { status: number; description: string };
const CONTROL_CHARACTERS: Refusal = {
  status: 400,
  description: 'parameters must not contain control characters',
};
const MALFORMED_HINT: Refusal = { status: 400, description: 'id_token_hint is not a valid JWT' };

function refusalOf(params: URLSearchParams): Refusal | undefined {
  if (controlCharacterIn(params)) return CONTROL_CHARACTERS;
  if (hasMalformedIdTokenHint(params)) return MALFORMED_HINT;
  return undefined;
}

/**
 * Parameters refused here, before oidc-provider (and its adapter, which looks codes and tokens up in
 * the database) sees them: control characters, which no OAuth parameter holds, and an id_token_hint
 * that is no JWT. In the query, and in a form body, which is read here (and its bytes kept for the
 * provider to read in turn).
 */
async function screenParameters(raw: IncomingMessage): Promise<{ refusal: Refusal } | { body?: Buffer }> {
  const inQuery = refusalOf(new URLSearchParams((raw.url ?? '').split('?')[1] ?? ''));
  if (inQuery) return { refusal: inQuery };
  // oidc-provider reads form bodies of POST requests only.
  if (raw.method !== 'POST' || !FORM.test(raw.headers['content-type'] ?? '')) return {};
  const body = await readBody(raw);
  if (!body) return { refusal: { status: 413, description: 'the request body is too large' } };
  const inBody = refusalOf(new URLSearchParams(body.toString('utf8')));
  return inBody ? { refusal: inBody } : { body };
}

/**
 * The request as oidc-provider is to see it: its body, read above, to read again. oidc-provider
 * parses a body itself from the request stream; handed one already read, it falls back to `req.body`
 * and warns that a parser ran before it.
 */
function withBodyToRead(raw: IncomingMessage & { originalUrl?: string }, body: Buffer): IncomingMessage {
  const again = new IncomingMessage(raw.socket) as IncomingMessage & { originalUrl?: string };
  again.method = raw.method;
  again.url = raw.url;
  again.originalUrl = raw.originalUrl;
  again.headers = raw.headers;
  again.rawHeaders = raw.rawHeaders;
  again.httpVersion = raw.httpVersion;
  again.httpVersionMajor = raw.httpVersionMajor;
  again.httpVersionMinor = raw.httpVersionMinor;
  // Whole already: reading it never touches the connection, and ending it never closes it.
  again.complete = true;
  again._read = () => {};
  again.push(body);
  again.push(null);
  return again;
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
