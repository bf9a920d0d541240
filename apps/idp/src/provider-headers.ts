import type { Middleware } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { OKTA_POST_MESSAGE } from './okta-post-message.js';

/**
 * Security headers for everything under the issuer path, set before oidc-provider answers (they
 * replace whatever the host application's helmet put on the raw response). Pages that need more
 * (okta_post_message, logout) set their own CSP. A lone 'strict-dynamic' trusts no script until a
 * hash is added, which is what oidc-provider's own auto-submit pages do.
 */
export function providerHeaders(formTargets: readonly string[]): Middleware {
  const csp = [
    "default-src 'none'",
    "script-src 'strict-dynamic'",
    "base-uri 'none'",
    `form-action ${formTargets.join(' ')}`,
    "frame-ancestors 'none'",
  ].join('; ');

  return async (koaCtx, next) => {
    koaCtx.set('Content-Security-Policy', csp);
    koaCtx.set('X-Frame-Options', 'DENY');
    koaCtx.set('X-Content-Type-Options', 'nosniff');
    // /v1/authorize URLs carry session tokens: never leak them in a Referer.
    koaCtx.set('Referrer-Policy', 'no-referrer');
    await next();

    const ctx = koaCtx as unknown as KoaContextWithOIDC;
    const body = ctx.body as { response_modes_supported?: string[] } | undefined;
    if (ctx.oidc?.route === 'discovery' && body?.response_modes_supported) {
      body.response_modes_supported = ['query', 'fragment', OKTA_POST_MESSAGE];
    }
  };
}
