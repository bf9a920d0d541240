import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PORTAL_CONFIG_META_NAME, routes, type PortalConfig } from '@customer-core/contracts';
import type { Config } from '../config/config.js';

const CONFIG_PLACEHOLDER = `<meta name="${PORTAL_CONFIG_META_NAME}" content="">`;

/** Paths the single-page app never answers: they belong to the API and the identity provider. */
const SERVER_PREFIXES = ['/api/', '/oauth2/', '/dev/', '/healthz', '/readyz'];

/**
 * The portal's routes as the browser's router matches them: `:name` is one non-empty segment, a
 * trailing slash is optional and letter case does not matter.
 */
const PORTAL_ROUTES = Object.values(routes).map(({ path: pattern }) => {
  const segments = pattern
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}/?$`, 'i');
});

function isPortalRoute(url: string): boolean {
  return PORTAL_ROUTES.some((route) => route.test(url));
}

/** The runtime configuration the portal's pages are handed: what they show and whom they sign in with. */
export function portalConfigOf(config: Config): PortalConfig {
  return {
    lender: config.lender,
    identityProviders: config.identityProviders,
    passkeySignInIssuer: config.bundledIdp?.issuer ?? null,
    session: { warningSeconds: config.sessionWarningSeconds },
    errorReporting: config.errorReporting,
  };
}

/**
 * Serves the built portal: hashed assets cached for a year, and index.html (with this deployment's
 * runtime configuration in a meta tag, so one build serves every environment) for every page address.
 */
export async function registerPortal(
  app: FastifyInstance,
  options: { distDir: string; portalConfig: PortalConfig },
) {
  const indexFile = path.join(options.distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.error({ indexFile }, 'The portal is not built: run `npm run build`. Serving the API only.');
    app.setNotFoundHandler(notFound);
    return;
  }
  const template = readFileSync(indexFile, 'utf8');
  if (!template.includes(CONFIG_PLACEHOLDER)) {
    throw new Error(`${indexFile} lacks the ${CONFIG_PLACEHOLDER} placeholder`);
  }
  const indexHtml = template.replace(
    CONFIG_PLACEHOLDER,
    `<meta name="${PORTAL_CONFIG_META_NAME}" content="${escapeAttribute(JSON.stringify(options.portalConfig))}">`,
  );

  await app.register(fastifyStatic, {
    root: options.distDir,
    // One route for every file, each looked up as it is asked for: a route per file (and per compressed
    // copy) took a third of the time it takes to build the server.
    wildcard: true,
    index: false,
    // Never the build's own records (.vite/), which the plugin would serve;
    dotfiles: 'ignore',
    // nor a folder (refused with a 403), nor the page as built however its address is spelled (`//`,
    // `./`, `..`, escapes): it goes out with this deployment's configuration (the not-found handler).
    allowedPath: (pathname) => !pathname.endsWith('/') && fileAt(options.distDir, pathname) !== indexFile,
    // The build writes .br and .gz beside each asset; they are sent to clients that accept them.
    preCompressed: true,
    // One rule for caching, below; the plugin's own header would overwrite it.
    cacheControl: false,
    setHeaders(res, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('vary', 'accept-encoding'); // caches keep the brotli, gzip and plain copies apart
    },
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isPage = request.method === 'GET' || request.method === 'HEAD';
    if (!isPage || SERVER_PREFIXES.some((prefix) => url.startsWith(prefix))) return notFound(request, reply);
    // Any other address gets the portal too, with a 404: its router shows the not-found screen.
    return reply
      .status(isPortalRoute(url) ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexHtml);
  });
}

/** The file an address names under `root`, as the static plugin resolves it; null if it cannot be decoded. */
function fileAt(root: string, pathname: string): string | null {
  try {
    return path.join(root, decodeURIComponent(pathname));
  } catch {
    return null;
  }
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .status(404)
    .send({ error: 'not_found', message: `No route for ${request.method} ${request.url.split('?')[0]}` });
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
