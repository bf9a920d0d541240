import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers of the portal and API. The identity provider's own pages (under the issuer path)
 * set theirs, since they are answered outside Fastify's reply. The policy is built once: building it
 * per request (as the Fastify plugin for helmet does) cost a tenth of the server's time per request.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { production: boolean; identityProviderOrigins: string[]; errorReportingDsn: string | null },
) {
  const idp = options.identityProviderOrigins;
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
  app.addHook('onRequest', (request, reply, done) => {
    // helmet throws rather than passing an error on; it calls back synchronously.
    applyHeaders(request.raw, reply.raw, () => done());
  });
}
