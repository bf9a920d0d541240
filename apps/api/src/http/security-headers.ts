import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from '../config/config.js';

/**
 * Security headers of the portal and API. The identity provider's own pages (under the issuer path)
 * set theirs, since they are answered outside Fastify's reply. The headers depend on configuration
 * alone, so helmet works them out once at start-up: building the policy per request (as the Fastify
 * plugin for helmet does) cost a tenth of the server's time on small answers.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: {
    production: boolean;
    publicUrl: string;
    identityProviders: Config['identityProviders'];
    errorReportingDsn: string | null;
  },
) {
  // The identity providers' origins, but the portal's own (where the bundled one answers).
  const own = new URL(options.publicUrl).origin;
  const providers = [options.identityProviders.production, options.identityProviders.nonProduction];
  const idp = [...new Set(providers.map((p) => new URL(p.issuer).origin))].filter((origin) => origin !== own);
  // The error-reporting client sends to its DSN's origin, and compresses session replays in a blob: worker.
  const reporting = options.errorReportingDsn ? [new URL(options.errorReportingDsn).origin] : [];
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        // okta-auth-js calls the identity provider and loads its authorize page in a hidden iframe
        connectSrc: ["'self'", ...idp, ...reporting],
        workerSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'", ...idp],
        formAction: ["'self'", ...idp],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        ...(options.production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: options.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
  };
  // helmet only sets and removes headers, and calls back synchronously.
  applyHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  if (headers.size === 0) throw new Error('helmet set no security headers');
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
