import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers of the portal and API. The identity provider's own pages (under the issuer path)
 * set theirs, since they are answered outside Fastify's reply.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { production: boolean; identityProviderOrigins: string[]; errorReportingDsn: string | null },
) {
  const idp = options.identityProviderOrigins;
  // The error-reporting client sends to its DSN's origin, and compresses session replays in a blob: worker.
  const reporting = options.errorReportingDsn ? [new URL(options.errorReportingDsn).origin] : [];
  await app.register(helmet, {
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
}
